import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { testTransfers } from '../../db/schema';
import { formatCents, parseCents } from '../../../domain/money';
import { PayoutRefusedError } from './payout-errors';
import type { PayoutTransfers, ReversalInput, TransferInput } from './payout-provider';

type TestTransferRow = typeof testTransfers.$inferSelect;

/**
 * The built-in payout provider's transfers (docs/rules/running.md, Running modes and adapters): a
 * transfer or a reversal is a row of this database, one per idempotency key, kept for ever (no key
 * window). The same key with other parameters is refused, as Stripe refuses it.
 */
export class TestPayoutTransfers implements PayoutTransfers {
  constructor(private readonly db: Db) {}

  async transfer(input: TransferInput): Promise<{ providerTransferId: string }> {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw new PayoutRefusedError(`A transfer needs a positive amount (${input.amount})`);
    const row = await this.insertOnce({
      id: `ttr_${crypto.randomBytes(12).toString('hex')}`,
      kind: 'transfer',
      idempotencyKey: input.idempotencyKey,
      transferId: null,
      destinationAccountId: input.destinationAccountId,
      amount: formatCents(input.amount),
      currency: input.currency,
      sourceChargeId: input.sourceChargeId,
      transferGroup: input.transferGroup,
      metadata: input.metadata,
    });
    if (row.destinationAccountId !== input.destinationAccountId || parseCents(row.amount) !== input.amount)
      throw new PayoutRefusedError(`Idempotency key ${input.idempotencyKey} was used with other parameters`);
    return { providerTransferId: row.id };
  }

  async reverseTransfer(input: ReversalInput): Promise<{ providerReversalId: string }> {
    const [transfer] = await this.db
      .select()
      .from(testTransfers)
      .where(and(eq(testTransfers.id, input.providerTransferId), eq(testTransfers.kind, 'transfer')));
    if (!transfer) throw new PayoutRefusedError(`No such transfer: ${input.providerTransferId}`);
    const existing = await this.findByKey('reversal', input.idempotencyKey);
    if (!existing) {
      const [reversed] = await this.db
        .select({ total: sql<string>`coalesce(sum(${testTransfers.amount}), 0)::text` })
        .from(testTransfers)
        .where(and(eq(testTransfers.kind, 'reversal'), eq(testTransfers.transferId, transfer.id)));
      if (parseCents(reversed?.total ?? '0') + input.amount > parseCents(transfer.amount))
        throw new PayoutRefusedError(`The reversal exceeds what is left of transfer ${transfer.id}`);
    }
    const row = await this.insertOnce({
      id: `trr_${crypto.randomBytes(12).toString('hex')}`,
      kind: 'reversal',
      idempotencyKey: input.idempotencyKey,
      transferId: transfer.id,
      destinationAccountId: transfer.destinationAccountId,
      amount: formatCents(input.amount),
      currency: transfer.currency,
      sourceChargeId: null,
      transferGroup: transfer.transferGroup,
      metadata: input.metadata,
    });
    if (row.transferId !== transfer.id || parseCents(row.amount) !== input.amount)
      throw new PayoutRefusedError(`Idempotency key ${input.idempotencyKey} was used with other parameters`);
    return { providerReversalId: row.id };
  }

  async findTransfer(input: {
    transferGroup: string;
    idempotencyKey: string;
  }): Promise<{ providerTransferId: string } | null> {
    const [row] = await this.db
      .select({ id: testTransfers.id })
      .from(testTransfers)
      .where(
        and(
          eq(testTransfers.kind, 'transfer'),
          eq(testTransfers.transferGroup, input.transferGroup),
          sql`${testTransfers.metadata}->>'key' = ${input.idempotencyKey}`,
        ),
      );
    return row ? { providerTransferId: row.id } : null;
  }

  /** Writes the row, or answers the one already written with this key. */
  private async insertOnce(row: typeof testTransfers.$inferInsert): Promise<TestTransferRow> {
    const [inserted] = await this.db
      .insert(testTransfers)
      .values(row)
      .onConflictDoNothing({ target: [testTransfers.kind, testTransfers.idempotencyKey] })
      .returning();
    if (inserted) return inserted;
    const existing = await this.findByKey(row.kind, row.idempotencyKey);
    if (!existing) throw new Error(`Test transfer ${row.idempotencyKey} vanished`);
    return existing;
  }

  private async findByKey(kind: string, key: string): Promise<TestTransferRow | undefined> {
    const [row] = await this.db
      .select()
      .from(testTransfers)
      .where(and(eq(testTransfers.kind, kind), eq(testTransfers.idempotencyKey, key)));
    return row;
  }
}
