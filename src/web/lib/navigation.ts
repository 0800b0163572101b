import type { SelfServiceRole } from '@domain/roles';

/**
 * Sign-in and sign-out are full browser navigations (docs/rules/accounts.md, Sessions and sign-in),
 * never router moves. They go through this object so a test can replace `assign` (jsdom cannot
 * navigate).
 */
export const browserLocation = {
  assign(url: string): void {
    window.location.href = url;
  },
};

export interface SignInOptions {
  returnTo?: string;
  intent?: SelfServiceRole;
}

export function loginUrl(options: SignInOptions = {}): string {
  const params = new URLSearchParams();
  if (options.returnTo) params.set('returnTo', options.returnTo);
  if (options.intent) params.set('intent', options.intent);
  const query = params.toString();
  return query ? `/api/login?${query}` : '/api/login';
}

export function signIn(options?: SignInOptions): void {
  browserLocation.assign(loginUrl(options));
}

export function signOut(): void {
  browserLocation.assign('/api/logout');
}

/**
 * After a 401 on a write, tell the user and sign in again after 500 ms
 * (docs/rules/screens-shared.md, Client behaviour).
 */
export const RELOGIN_DELAY_MS = 500;

let isSigningInAgain = false;

/**
 * Schedules the sign-in once: a write and the lists it refreshes may all answer 401 at once. Returns
 * false when one is already on its way (its "logged out" notice is showing).
 */
export function signInAgainSoon(): boolean {
  if (isSigningInAgain) return false;
  isSigningInAgain = true;
  window.setTimeout(() => {
    isSigningInAgain = false;
    signIn();
  }, RELOGIN_DELAY_MS);
  return true;
}
