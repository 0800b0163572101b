import { and, count, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { twoFactorRecoveryCodes, twoFactorSecrets } from '../../db/schema';

export type TwoFactorSecretRow = typeof twoFactorSecrets.$inferSelect;

export async function findTwoFactorSecret(db: Db, userId: string): Promise<TwoFactorSecretRow | undefined> {
  const rows = await db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId)).limit(1);
  return rows[0];
}

/** A new setup replaces the secret of one that was never finished. */
export async function storeTwoFactorSecret(db: Db, userId: string, secretEncrypted: string): Promise<void> {
  await db
    .insert(twoFactorSecrets)
    .values({ userId, secretEncrypted })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { secretEncrypted, lastUsedStep: 0, createdAt: new Date() },
    });
}

/**
 * Takes a code's time step: true only when no code of this step or a later one was taken before,
 * in one statement, so two requests with the same code cannot both pass.
 */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactorSecrets)
    .set({ lastUsedStep: step })
    .where(and(eq(twoFactorSecrets.userId, userId), lt(twoFactorSecrets.lastUsedStep, step)))
    .returning({ userId: twoFactorSecrets.userId });
  return rows.length > 0;
}

export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
}

export async function insertRecoveryCodes(
  db: Db,
  userId: string,
  codeHashes: readonly string[],
): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses a recovery code up: true when it was the user's and unused. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}
