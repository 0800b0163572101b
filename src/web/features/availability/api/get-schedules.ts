import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { scheduleSchema, type Schedule } from '@domain/availability';
import { apiGet } from '../../../lib/api-client';

export const SCHEDULES_KEY = ['/api/availability/schedules'] as const;

/** GET /api/availability/schedules: the user's own weekly hours, by day and start time. */
export async function fetchSchedules(signal?: AbortSignal): Promise<Schedule[]> {
  return z.array(scheduleSchema).parse(await apiGet('/api/availability/schedules', signal));
}

export const schedulesQueryOptions = queryOptions({
  queryKey: SCHEDULES_KEY,
  queryFn: ({ signal }) => fetchSchedules(signal),
});

export function useSchedules() {
  return useQuery(schedulesQueryOptions);
}
