import { useMutation, useQueryClient } from '@tanstack/react-query';
import { scheduleSchema, type Schedule, type ScheduleBody } from '@domain/availability';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { SCHEDULES_KEY } from './get-schedules';

/** POST /api/availability/schedules {dayOfWeek, startTime, endTime} -> 201 the new row. */
export async function addSchedule(body: ScheduleBody): Promise<Schedule> {
  return scheduleSchema.parse(await apiSend('POST', '/api/availability/schedules', body));
}

/**
 * 'Failed to add schedule', with the server's reason when it gave one
 * (docs/rules/screens-buyer.md, Account pages).
 */
export function useAddSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY }),
    onError: (error) => toastMutationError(error, 'Failed to add schedule', { appendServerMessage: true }),
  });
}
