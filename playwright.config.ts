import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tier: Debian's Chromium drives the built app, served by the real server on a free
 * port with a fresh embedded database and the demo data (see e2e/support/global-setup.ts).
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // The journeys share two cores with the server and Chromium; on 2026-11-28 the same machine ran the
  // whole suite three times slower than two days before (13 min against 4.5), with no change of code
  // (an A/B of one file gave the same time), and journeys of 10 s took 30. The limits leave room for that.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'off',
    screenshot: 'only-on-failure',
    // Accessibility checks never measure a dialog or toast halfway through its animation
    // (src/web/index.css turns animations off under prefers-reduced-motion).
    reducedMotion: 'reduce',
    // The app's service worker would take over the pages of every journey once registered; only
    // e2e/push.spec.ts lets it run (docs/decisions/0019-reaching-people.md).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
