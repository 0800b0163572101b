#!/usr/bin/env node
/**
 * Runs the money model (src/server/modules/payments/money-model.test.ts) with a budget:
 *
 *   npm run test:money -- --runs 50 --seed 42 [--steps 12] [--seconds 900]
 *   npm run test:money -- --seed 42 --steps 12 --path "…" --replay-path "…"   (replays a counterexample)
 *   npm run test:money -- --runs 30 --skip preventDispute,refundOutcome       (looks past known defects)
 *
 * Each flag sets the test's environment (MONEY_RUNS, MONEY_SEED, MONEY_STEPS, MONEY_SECONDS,
 * MONEY_PATH, MONEY_REPLAY_PATH, MONEY_SKIP); the exit code is vitest's (non-zero when a sequence fails).
 */
import { spawnSync } from 'node:child_process';

const FLAGS = {
  '--runs': { name: 'MONEY_RUNS', integer: true },
  '--seed': { name: 'MONEY_SEED', integer: true },
  '--steps': { name: 'MONEY_STEPS', integer: true },
  '--seconds': { name: 'MONEY_SECONDS', integer: true },
  '--path': { name: 'MONEY_PATH', integer: false },
  '--replay-path': { name: 'MONEY_REPLAY_PATH', integer: false },
  '--skip': { name: 'MONEY_SKIP', integer: false },
};

function usage(problem) {
  console.error(
    `${problem}\nUsage: npm run test:money -- [--runs N] [--seed S] [--steps K] [--seconds T] [--skip a,b] [--path P] [--replay-path R]`,
  );
  process.exit(2);
}

const env = { ...process.env };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i] ?? '';
  const [flag, inline] = arg.includes('=')
    ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
    : [arg, undefined];
  const known = FLAGS[flag];
  if (!known) usage(`Unknown argument: ${arg}`);
  const value = inline ?? args[(i += 1)];
  if (value === undefined || value === '') usage(`${flag} needs a value`);
  if (known.integer && !/^-?\d+$/.test(value)) usage(`${flag} takes an integer, not ${value}`);
  env[known.name] = value;
}

// Without --seed, a new random seed each run (the suite itself runs a fixed one); it is printed.
env.MONEY_SEED ??= String(Math.floor(Math.random() * 2 ** 31));

const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'integration-pglite', 'src/server/modules/payments/money-model.test.ts'],
  { stdio: 'inherit', env },
);
if (result.error) {
  console.error(result.error.message);
  process.exit(1);
}
process.exit(result.status ?? 1);
