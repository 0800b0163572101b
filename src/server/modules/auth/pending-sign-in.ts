import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PENDING_SIGN_IN_MINUTES } from '../../../domain/two-factor';
import type { App } from '../../platform/context';

/**
 * Between the password and the code of a two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md):
 * a short-lived cookie signed with the session secret names the account, where to go next and until
 * when the code is awaited. It opens nothing by itself: no session exists until the code is right.
 */
const PENDING_COOKIE = 'sign_in_pending';
const COOKIE_PATH = '/api/login';

const pendingSchema = z.object({
  userId: z.string(),
  expiresAt: z.number(),
  returnTo: z.string(),
  intent: z.enum(['seller', 'driver']).optional(),
});
export type PendingSignIn = z.infer<typeof pendingSchema>;

export function setPendingSignIn(
  app: App,
  reply: FastifyReply,
  now: Date,
  pending: Omit<PendingSignIn, 'expiresAt'>,
): void {
  const value: PendingSignIn = { ...pending, expiresAt: now.getTime() + PENDING_SIGN_IN_MINUTES * 60_000 };
  void reply.setCookie(PENDING_COOKIE, JSON.stringify(value), {
    httpOnly: true,
    sameSite: 'lax',
    secure: app.sessionCookieOptions.secure,
    path: COOKIE_PATH,
    signed: true,
    maxAge: PENDING_SIGN_IN_MINUTES * 60,
  });
}

/** The sign-in waiting for its code, or undefined when there is none, it was tampered with or it expired. */
export function readPendingSignIn(request: FastifyRequest, now: Date): PendingSignIn | undefined {
  const raw = request.cookies[PENDING_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  if (!unsigned?.valid || !unsigned.value) return undefined;
  let parsed;
  try {
    parsed = pendingSchema.safeParse(JSON.parse(unsigned.value));
  } catch {
    return undefined;
  }
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return undefined;
  return parsed.data;
}

export function clearPendingSignIn(app: App, reply: FastifyReply): void {
  void reply.clearCookie(PENDING_COOKIE, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: app.sessionCookieOptions.secure,
  });
}
