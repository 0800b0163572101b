import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { signedInAs, type TestUser } from '../../testing/test-app';
import { turnDeliveryProofOff } from '../../testing/payout-scenes';
import { readReconcileFacts } from '../ledger/reconcile.queries';
import { readProviderLedger } from '../ledger/provider-reconcile.queries';
import { startMoneyWorld, type MoneyWorld } from './money-model/world';
import { describeCheckout, startSequence, type CheckInvariants, type MoneyModel } from './money-model/model';
import { checkoutSpec, firstCheckout, moneyCommand, settle } from './money-model/commands';
import { checkInvariants, type Readers } from './money-model/invariants';

/**
 * A model-based test of the money (docs/decisions/0018-money-against-stripe.md,
 * docs/decisions/0022-money-in-combinations.md) with fast-check's commands: random sequences of
 * checkouts of 1–3 orders from different sellers paid with Stripe, cancellations, deliveries, the
 * admin's refunds (an amount, items, all that is left), disputes opened, answered, won and lost at
 * Stripe with their events delivered late, twice and out of order, refunds that fail after
 * succeeding, the payout and payments jobs, payees restricted and fixed, paid out to their banks,
 * provider answers lost and crashes after a commit, and the clock moved past Stripe's key window and
 * the payout hold; after every command the invariants of ./money-model/invariants.ts hold.
 *
 * One app and one local Stripe serve the whole file; each sequence makes its own buyer, three
 * sellers and a driver (each payee onboarded with a Stripe Connect account) and its own products.
 *
 * Budget (environment, or `npm run test:money -- --runs N --seed S [--steps K]`): MONEY_RUNS (default 10),
 * MONEY_STEPS (most commands a sequence runs, default 12; fast-check generates three times as many and skips
 * those with nothing to act on), MONEY_SEED (default a fixed number; `npm run test:money` without --seed
 * picks a random one; printed), MONEY_SECONDS (fast-check's time limit, runs and shrinking together: 70 by
 * default, runs × 15 + 120 when MONEY_RUNS is given), and to replay a counterexample MONEY_PATH and
 * MONEY_REPLAY_PATH as the failure prints them; MONEY_SKIP (commands left out, comma-separated, to look past
 * a known defect) and MONEY_VERBOSE=1 (every sequence's trace printed).
 */

const env = process.env;
function intOf(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, not ${raw}`);
  return value;
}
const RUNS = intOf('MONEY_RUNS', 10);
const STEPS = intOf('MONEY_STEPS', 12);
// The test suite runs a fixed seed everywhere, so `npm test` gives the same answer on every machine;
// `npm run test:money` without --seed picks a random one (printed) to explore further.
const SEED = intOf('MONEY_SEED', 20261203);
const SECONDS = intOf('MONEY_SECONDS', env.MONEY_RUNS ? RUNS * 15 + 120 : 70);
const PATH = env.MONEY_PATH || undefined;
const REPLAY_PATH = env.MONEY_REPLAY_PATH || undefined;
/** MONEY_SKIP=preventDispute,refundOutcome leaves those commands out (to look past a known defect). */
const SKIP = new Set((env.MONEY_SKIP ?? '').split(',').filter(Boolean));
/** MONEY_VERBOSE=1 prints every sequence's trace, passing or not. */
const VERBOSE = env.MONEY_VERBOSE === '1';
const FILE = 'src/server/modules/payments/money-model.test.ts';

const readers: Readers = { reconcileFacts: readReconcileFacts, providerLedger: readProviderLedger };
const check: CheckInvariants = (s, m, options) => checkInvariants(s, m, readers, options);

let mw: MoneyWorld;
let admin: TestUser;

beforeAll(async () => {
  mw = await startMoneyWorld();
  admin = await signedInAs(mw.t, 'admin');
  await turnDeliveryProofOff(mw.t);
});
afterAll(async () => {
  await mw?.close();
});

/** What the last failing sequence did (the shrunk counterexample's, once shrinking ends). */
let lastFailure: { trace: string[]; error: unknown } | undefined;

/** The sequence's calls: its orders' transfers and reversals, its payments' refunds. */
function ownedBy(m: MoneyModel) {
  return (call: { orderId?: string; providerPaymentId?: string }) =>
    (call.orderId !== undefined && m.orders.some((o) => o.id === call.orderId)) ||
    (call.providerPaymentId !== undefined && m.payments.some((p) => p.intentId === call.providerPaymentId));
}

const moneyProperty = fc.asyncProperty(
  fc.constantFrom('daily' as const, 'manual' as const),
  checkoutSpec,
  fc.commands([moneyCommand(SKIP)], { maxCommands: STEPS * 3, size: 'max', replayPath: REPLAY_PATH }),
  async (schedule, first, commands) => {
    mw.freshStart();
    const setup = await startSequence(mw, check, admin, schedule, STEPS);
    mw.faults.reset();
    mw.faults.owns = ownedBy(setup.model);
    try {
      await firstCheckout(setup.model, setup.real, first);
      await fc.asyncModelRun(() => setup, commands);
      await settle(setup.model, setup.real);
      if (VERBOSE) console.log(`passed:\n  ${setup.real.trace.join('\n  ')}`);
    } catch (error) {
      lastFailure = { trace: [...setup.real.trace], error };
      if (VERBOSE)
        console.log(
          `failed:\n  ${setup.real.trace.join('\n  ')}\n  ${error instanceof Error ? error.message : String(error)}`,
        );
      throw error;
    } finally {
      mw.faults.reset();
    }
  },
);

function report(details: fc.RunDetails<unknown>) {
  // The property's arguments: the payout schedule, the first checkout and the commands.
  const [schedule, first, commands] = (details.counterexample ?? ['?', [], []]) as [
    string,
    Parameters<typeof describeCheckout>[0],
    Iterable<unknown>,
  ];
  const listed = [...commands]
    .filter((c) => (c as { hasRan?: boolean }).hasRan !== false)
    .map((c, i) => `  ${i + 1}. ${String(c)}`);
  const replayPath = /replayPath="([^"]*)"/.exec(String(commands))?.[1];
  const replay = [
    `npm run test:money -- --seed ${details.seed} --steps ${STEPS}${SKIP.size ? ` --skip ${[...SKIP].join(',')}` : ''}`,
    details.counterexamplePath ? `--path "${details.counterexamplePath}"` : '',
    replayPath ? `--replay-path "${replayPath}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const error = lastFailure?.error ?? details.errorInstance;
  return [
    `The money model found a counterexample (seed ${details.seed}, ${details.numRuns} runs, ${details.numShrinks} shrinks${details.interrupted ? ', shrinking interrupted by the time limit' : ''}).`,
    `Replay it: ${replay}`,
    `  (file ${FILE}; MONEY_SEED=${details.seed} MONEY_PATH="${details.counterexamplePath ?? ''}"${replayPath ? ` MONEY_REPLAY_PATH="${replayPath}"` : ''})`,
    '',
    `Shrunk sequence: the payees' accounts are paid out ${schedule}; checkout(${describeCheckout(first)}); then`,
    ...(listed.length ? listed : ['  (no command)']),
    '',
    'What it did:',
    ...(lastFailure?.trace ?? []).map((line) => `  ${line}`),
    '',
    `What broke: ${error instanceof Error ? error.message : String(error)}`,
  ].join('\n');
}

describe('the money, in random combinations, against the local Stripe', () => {
  it(
    'keeps every invariant after every command',
    async () => {
      console.log(
        `money model: seed ${SEED}, ${RUNS} runs of at most ${STEPS} commands, ${SECONDS} s${SKIP.size ? `, without ${[...SKIP].join(', ')}` : ''} (npm run test:money -- --seed ${SEED} --runs ${RUNS} --steps ${STEPS}${SKIP.size ? ` --skip ${[...SKIP].join(',')}` : ''})`,
      );
      const started = Date.now();
      const details = await fc.check(moneyProperty, {
        seed: SEED,
        numRuns: RUNS,
        ...(PATH ? { path: PATH, endOnFailure: true } : {}),
        plugins: [fc.interruptAfterTimeLimit(SECONDS * 1000)],
      });
      console.log(
        `money model: ${details.numRuns} runs, ${details.numShrinks} shrinks in ${((Date.now() - started) / 1000).toFixed(1)} s${details.interrupted ? ' (interrupted by the time limit)' : ''}`,
      );
      if (details.failed) expect.fail(report(details));
    },
    (SECONDS + 180) * 1000,
  );
});
