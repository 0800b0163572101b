import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { blackoutSchema, type Blackout } from '@domain/availability';
import { apiGet } from '../../../lib/api-client';

export const BLACKOUTS_KEY = ['/api/availability/blackouts'] as const;

/** GET /api/availability/blackouts: the user's own blackout date ranges, by start date. */
export async function fetchBlackouts(signal?: AbortSignal): Promise<Blackout[]> {
  return z.array(blackoutSchema).parse(await apiGet('/api/availability/blackouts', signal));
}

export const blackoutsQueryOptions = queryOptions({
  queryKey: BLACKOUTS_KEY,
  queryFn: ({ signal }) => fetchBlackouts(signal),
});

export function useBlackouts() {
  return useQuery(blackoutsQueryOptions);
}
