import fs from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { STATE_FILE } from './global-setup';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO = {
  admin: 'admin@example.com',
  buyer: 'buyer@example.com',
  seller: 'seller@example.com',
  driver: 'driver@example.com',
} as const;

let counter = 0;

/**
 * Each API sign-up comes from an address of its own (a documentation range, RFC 5737), as the
 * clients behind the reverse proxy of a real deployment would: the per-address sign-up limit stays
 * on in the browser tests, and a suite that makes many accounts does not run into it.
 */
function clientAddress(): string {
  return `198.51.100.${((process.pid * 31 + counter) % 254) + 1}`;
}

/**
 * The path and query of the newest mailed link to `path` for an address, read from the server's log,
 * where the embedded install delivers its mail (`mail logged`, with its text) as a person would read
 * their inbox. The admin's Mail tab hides every link's secret
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md), and the mail of an account request is
 * made after its answer: the log is read again until the link is there.
 */
export async function mailedLink(
  to: string,
  path: '/api/verify-email' | '/api/reset-password',
): Promise<string> {
  const { logFile } = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as { logFile: string };
  const pattern = new RegExp(`https?://[^\\s]+${path}\\?token=[A-Za-z0-9_-]+(?:&returnTo=[^\\s&]+)?`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    let found: string | undefined;
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('"mail logged"')) continue;
      let entry: { mail?: { to?: string; text?: string } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      const match = entry.mail?.to === to ? pattern.exec(entry.mail.text ?? '') : null;
      if (match) found = match[0];
    }
    if (found) {
      const url = new URL(found);
      return url.pathname + url.search;
    }
    if (Date.now() > deadline) throw new Error(`no ${path} link mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A new account made through the API and confirmed by its mailed link, signed in in this page's
 * browser context.
 */
export async function signUpFresh(
  page: Page,
  role?: 'seller' | 'driver',
): Promise<{ email: string; password: string }> {
  counter += 1;
  const email = `e2e-${Date.now()}-${process.pid}-${counter}@example.com`;
  const password = 'e2e password';
  const response = await page.request.post('/api/signup', {
    data: { email, password, firstName: 'Eve', lastName: 'Tester' },
    headers: { 'x-forwarded-for': clientAddress() },
  });
  expect(response.status()).toBe(202);
  const verified = await page.request.get(await mailedLink(email, '/api/verify-email'), { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  if (role) {
    const granted = await page.request.post('/api/auth/user/roles', { data: { role } });
    expect(granted.status()).toBe(200);
  }
  return { email, password };
}

/** Signs in through the API (the sign-in page itself has its own tests). */
export async function signInAs(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await page.request.post('/api/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The page's last 40 API calls, as `METHOD path → status` (or the network failure), oldest first. */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  const note = (url: string, method: string, outcome: string) => {
    const { pathname, search } = new URL(url);
    if (!pathname.startsWith('/api/')) return;
    calls.push(`${new Date().toISOString().slice(11, 23)} ${method} ${pathname}${search} → ${outcome}`);
    if (calls.length > 40) calls.shift();
  };
  page.on('response', (answer) => note(answer.url(), answer.request().method(), String(answer.status())));
  page.on('requestfailed', (sent) =>
    note(sent.url(), sent.method(), `failed: ${sent.failure()?.errorText ?? 'unknown'}`),
  );
  return calls;
}

/**
 * Every test fails on an unexpected console error, uncaught exception or breach of the content
 * security policy in the page (CONTRIBUTING.md, Code layout rules). A test that expects one
 * (a 401 while signed out) lists its text in `allowedConsoleErrors`.
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp[]; consoleGuard: void }>({
  // A visitor's GET /api/auth/user answers 401 by design
  // (docs/rules/accounts.md, Sessions and sign-in); Chromium logs that.
  allowedConsoleErrors: [[/status of 401 \(Unauthorized\)/], { option: true }],
  consoleGuard: [
    async ({ page, allowedConsoleErrors }, use, testInfo) => {
      const problems: string[] = [];
      const calls = recordApiCalls(page);
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        if (allowedConsoleErrors.some((pattern) => pattern.test(text))) return;
        problems.push(text);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      // A blocked eval or script is not always logged: the page reports each violation itself.
      await page.exposeFunction('__reportPolicyViolation', (violation: string) =>
        problems.push(`content security policy: ${violation}`),
      );
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportPolicyViolation: (violation: string) => void })
            .__reportPolicyViolation;
          report(`${event.violatedDirective} ${event.blockedURI} in ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        // CI keeps only its log: the page's last API calls tell a lost press from a refused request.
        process.stderr.write(`${testInfo.title}: the page's last API calls\n${calls.join('\n')}\n`);
      }
      expect(problems, 'console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
