import type { Db } from '../db/client';

class RolledBack extends Error {}

/**
 * Runs `work` in a transaction (a savepoint inside one) that is then rolled back: a property test
 * puts each run's rows in the database and leaves none behind for the next run.
 */
export async function rolledBack<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      result = { value: await work(tx) };
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  if (!result) throw new Error('the work did not finish');
  return result.value;
}
