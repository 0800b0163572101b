import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAdminData } from './admin-data';

describe('invalidateAdminData', () => {
  it('reads a list again after a change even while its first read is on its way', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const answers: string[][] = [];
    let rows = ['Lamps'];
    let release: () => void = () => {};
    const observer = new QueryObserver(queryClient, {
      queryKey: ['/api/admin/categories', { search: 'lamps' }],
      queryFn: async () => {
        const seen = [...rows];
        // The first read is slow: it has seen the rows before the change, and answers after it.
        if (answers.length === 0) await new Promise<void>((resolve) => (release = resolve));
        answers.push(seen);
        return seen;
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await Promise.resolve();
    rows = [];
    const invalidated = invalidateAdminData(queryClient);
    release();
    await invalidated;
    expect(queryClient.getQueryData(['/api/admin/categories', { search: 'lamps' }])).toEqual([]);
    unsubscribe();
    queryClient.clear();
  });
});
