/**
 * The home page's greeting, in a module without zod: the first load takes it without building the
 * user schemas (docs/decisions/0014-first-load.md).
 */

/**
 * An account younger than this is greeted "Welcome", an older one "Welcome back"
 * (docs/rules/screens-buyer.md, Catalog screens): a person who has just signed up has not come back yet.
 */
export const NEW_ACCOUNT_MINUTES = 15;

/** "Welcome" for an account created in the last 15 minutes (or in the future: a clock skew), else "Welcome back". */
export function greetingFor(user: { createdAt: string }, now: Date): 'Welcome' | 'Welcome back' {
  const created = new Date(user.createdAt).getTime();
  if (Number.isNaN(created)) return 'Welcome back';
  return now.getTime() - created < NEW_ACCOUNT_MINUTES * 60_000 ? 'Welcome' : 'Welcome back';
}
