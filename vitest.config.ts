import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const alias = { '@domain': path.resolve(import.meta.dirname, 'src/domain') };
const integration = (name: string, db: string, groupOrder: number) => ({
  extends: true as const,
  test: {
    name,
    include: ['src/server/**/*.test.ts'],
    env: { TEST_DB: db },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file has its own database; two cores run two files at a time.
    maxWorkers: 2,
    // The two databases run one after the other, each with the machine's two cores.
    sequence: { groupOrder },
  },
});

/**
 * Three tiers (CONTRIBUTING.md, Code layout rules): unit (domain and browser code),
 * integration (the server through app.inject on PGlite, and on PostgreSQL when TEST_DATABASE_URL is
 * set) and e2e (Playwright).
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/domain/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Typing through user-event in jsdom takes seconds on a shared two-core machine.
          testTimeout: 15_000,
          setupFiles: ['src/web/test-support/jest-dom.ts'],
        },
      },
      integration('integration-pglite', 'pglite', 1),
      ...(process.env.TEST_DATABASE_URL ? [integration('integration-postgres', 'postgres', 2)] : []),
    ],
  },
});
