import { desc, eq } from 'drizzle-orm';
import { outbox } from '../db/schema';
import { cookieFrom, type TestApp } from './test-app';
import { drainOutbox } from '../platform/outbox';
import { accountRequestDeliverer } from '../modules/auth/account-requests';

/** A mail as queued in the outbox (docs/decisions/0019-reaching-people.md, Mail). */
export interface QueuedMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Does the account requests queued so far, as the notifications timer does after their answer
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md): the mail they cause is then queued.
 */
export async function runAccountRequests(t: TestApp): Promise<number> {
  const deliverer = accountRequestDeliverer({
    db: t.database.db,
    siteUrl: t.config.siteUrl,
    now: () => new Date(),
  });
  let done = 0;
  for (;;) {
    // A second ahead: a row stamped by the database's clock (microseconds) within this millisecond
    // is due too.
    const report = await drainOutbox(t.database.db, { account: deliverer }, new Date(Date.now() + 1_000));
    const batch = report.sent + report.dropped + report.retried + report.failed;
    if (batch === 0) return done;
    done += batch;
  }
}

/** The mail queued to an address, newest first (once the account requests are done). */
export async function mailsTo(t: TestApp, to: string): Promise<QueuedMail[]> {
  await runAccountRequests(t);
  const rows = await t.database.db
    .select()
    .from(outbox)
    .where(eq(outbox.channel, 'mail'))
    .orderBy(desc(outbox.id));
  return rows
    .map((row) => ({ kind: row.kind, ...(row.payload as Omit<QueuedMail, 'kind'>) }))
    .filter((mail) => mail.to === to);
}

/** The path and query of the mail's link to `path` (the mail's links are absolute, from siteUrl). */
export function linkIn(mail: QueuedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<]+${path}\\?token=[A-Za-z0-9_-]+(?:&returnTo=[^\\s"<&]+)?`).exec(
    mail.text,
  );
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}": ${mail.text}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

/** Signs up with the JSON API and follows the verification link: the account's session cookie. */
export async function signUpVerified(
  t: TestApp,
  body: { email: string; password: string; firstName: string; lastName: string; intent?: string },
): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/signup', payload: body });
  if (response.statusCode !== 202) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const [mail] = await mailsTo(t, body.email.toLowerCase());
  if (!mail) throw new Error(`no mail to ${body.email}`);
  const verified = await t.app.inject({ method: 'GET', url: linkIn(mail, '/api/verify-email') });
  if (verified.statusCode !== 302) throw new Error(`verification failed: ${verified.statusCode}`);
  return cookieFrom(verified);
}
