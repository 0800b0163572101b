import type { TestApp } from './test-app';

/**
 * Resolves once `count` statements of the test's database wait for a lock (PostgreSQL's
 * `pg_stat_activity`), polling every 10 ms; throws after about ten seconds, naming `what` that never
 * waited. For tests that hold a row in one transaction until other changes wait for it.
 */
export async function untilSomeoneWaitsForALock(t: TestApp, what: string, count = 1): Promise<void> {
  for (let waited = 0; ; waited++) {
    const { rows } = await t.database.executeSql(
      `select count(*)::int as count from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (((rows[0] as { count: number } | undefined)?.count ?? 0) >= count) return;
    if (waited > 1000) throw new Error(`${what} never waited`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
