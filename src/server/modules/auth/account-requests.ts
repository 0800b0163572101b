import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox, passwordCredentials, users } from '../../db/schema';
import { enqueueOutbox, type DeliveryOutcome, type OutboxDeliverer } from '../../platform/outbox';
import type { Role, SelfServiceRole } from '../../../domain/roles';
import { findUserByEmail } from '../users/user-records';
import {
  mailPasswordReset,
  mailVerificationAgain,
  queueAccountExistsMail,
  queueVerificationMail,
} from './accounts.service';

/**
 * The calls that answer the same whatever the address (forgot password, resend the verification
 * link, sign-up) also do the same work in the request, whether the address has an account or not
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md, The same work for every address): the
 * request writes one row to the outbox, on the `account` channel, with one statement that reads no
 * account first, and answers. What differs (a link made and mailed, a notice, nothing) is done after
 * the answer by the notifications timer, which hands each row to {@link accountRequestDeliverer}.
 */
export type AccountRequest =
  | { purpose: 'reset'; email: string }
  | { purpose: 'verify'; email: string }
  | { purpose: 'sign_up'; email: string; created: boolean; returnTo: string };

/** "Forgot password?" and "Resend the link": one row, whatever the address. */
export function queueAccountRequest(db: Db, request: { purpose: 'reset' | 'verify'; email: string }) {
  return enqueueOutbox(db, [{ channel: 'account', kind: request.purpose, userId: null, payload: request }]);
}

export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  role: Role;
  roles: Role[];
  returnTo: string;
}

/**
 * Sign-up's one statement: the account is made unless the address has one (`on conflict do
 * nothing`), its password with it, and the request row that says which happened. Both paths run
 * the same statement, and the account exists at the answer, so its right password is answered
 * "Confirm your email address first" at once.
 */
export async function createAccountOrNote(db: Db, account: NewAccount): Promise<void> {
  await db.execute(sql`
    with created as (
      insert into ${users} (email, first_name, last_name, role, roles)
      values (${account.email}, ${account.firstName}, ${account.lastName}, ${account.role},
        ${`{${account.roles.join(',')}}`}::text[])
      on conflict do nothing
      returning id
    ), credential as (
      insert into ${passwordCredentials} (user_id, password_hash)
      select id, ${account.passwordHash} from created
    )
    insert into ${outbox} (channel, kind, payload)
    select 'account', 'sign_up', jsonb_build_object(
      'purpose', 'sign_up', 'email', ${account.email}::text, 'returnTo', ${account.returnTo}::text,
      'created', exists (select 1 from created))`);
}

/** The roles a new account starts with: ADMIN_EMAILS and "Become a seller / driver" at sign-up. */
export function startingRoles(
  isBootstrapAdmin: boolean,
  intent: SelfServiceRole | undefined,
): { role: Role; roles: Role[] } {
  const roles: Role[] = ['buyer'];
  if (isBootstrapAdmin) roles.push('admin');
  if (intent) roles.push(intent);
  return { roles, role: intent ?? (isBootstrapAdmin ? 'admin' : 'buyer') };
}

function parseRequest(payload: unknown): AccountRequest | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const row = payload as Record<string, unknown>;
  if (typeof row.email !== 'string') return undefined;
  if (row.purpose === 'reset' || row.purpose === 'verify') return { purpose: row.purpose, email: row.email };
  if (row.purpose === 'sign_up')
    return {
      purpose: 'sign_up',
      email: row.email,
      created: row.created === true,
      returnTo: typeof row.returnTo === 'string' ? row.returnTo : '/',
    };
  return undefined;
}

/** Does what an account request asked, after its answer: the mail it causes is queued in turn. */
export function accountRequestDeliverer(ctx: { db: Db; siteUrl: string; now: () => Date }): OutboxDeliverer {
  return async (item): Promise<DeliveryOutcome> => {
    const request = parseRequest(item.payload);
    if (!request) return { outcome: 'drop', reason: 'not an account request' };
    const now = ctx.now();
    if (request.purpose === 'reset') await mailPasswordReset(ctx.db, request.email, ctx.siteUrl, now);
    else if (request.purpose === 'verify')
      await mailVerificationAgain(ctx.db, request.email, ctx.siteUrl, now);
    else {
      const user = await findUserByEmail(ctx.db, request.email);
      if (user)
        await ctx.db.transaction((tx) =>
          request.created
            ? queueVerificationMail(tx, user, ctx.siteUrl, now, request.returnTo)
            : queueAccountExistsMail(tx, user, ctx.siteUrl),
        );
    }
    return { outcome: 'sent' };
  };
}
