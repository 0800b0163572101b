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
  timeout: 30_000,
  expect: { timeout: 7_000 },
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
