import { errorBodySchema } from '../../../domain/errors';
import {
  becomeRoleBodySchema,
  currentUserSchema,
  idParamsSchema,
  moderatedUserSchema,
  publicUserSchema,
  removableRoleParamsSchema,
  roleBodySchema,
  sessionUserSchema,
  updateNamesBodySchema,
} from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { compileSerializer, sendJsonBytes } from '../../platform/compiled-serializer';
import { adminSetRole, removeUserRole, setUserSuspended } from './moderate-user';
import { becomeRole, getPublicProfile, switchOwnRole, toCurrentUser, updateOwnNames } from './users.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function registerUserRoutes(app: App, { db, live, privateReads, signedInReplays }: AppContext): void {
  const serializeSessionUser = compileSerializer(sessionUserSchema);
  // Every page asks it: a kept user is answered before the app's hooks
  // (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener). An
  // administrator goes the full way, where the two-factor hold decides their roles.
  signedInReplays.add('/api/auth/user', (actor) => {
    const liveCursor = live.heardCursor();
    if (actor.roles.includes('admin') || liveCursor === undefined) return undefined;
    return serializeSessionUser({ ...toCurrentUser(actor), liveCursor });
  });
  app.get(
    '/api/auth/user',
    {
      schema: {
        tags: ['users'],
        summary:
          "The signed-in user, and the live cursor (the newest live event's id) from which the page's first GET /api/events?since= catches up",
        response: { 200: sessionUserSchema, 401: errorBodySchema },
      },
    },
    // The cursor is read before the page reads anything else, so no event after it is lost
    // (docs/rules/live-updates.md, Live updates). Written by a compiled serialiser: every page asks it
    // (docs/decisions/0029-signed-in-reads-kept.md, What is kept).
    async (request, reply) =>
      sendJsonBytes(
        reply,
        serializeSessionUser({
          ...toCurrentUser(actorOf(request)),
          // The request's fence answers for the live events' channel too: one connection listens.
          liveCursor: await live.cursor(privateReads.freshFor(request)),
          ...(request.twoFactorSetupRequired ? { twoFactorSetupRequired: true } : {}),
        }),
      ),
  );

  app.patch(
    '/api/auth/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Change own first and last name (nothing else)',
        body: updateNamesBodySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => updateOwnNames(db, actorOf(request), request.body),
  );

  app.post(
    '/api/auth/user/roles',
    {
      schema: {
        tags: ['users'],
        summary: 'Become a seller or a driver: grants the role and makes it current',
        body: becomeRoleBodySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => becomeRole(db, actorOf(request), request.body.role),
  );

  app.patch(
    '/api/users/:id/role',
    {
      schema: {
        tags: ['users'],
        summary: 'Switch own current role to one of the granted roles',
        params: idParamsSchema,
        body: roleBodySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => switchOwnRole(db, actorOf(request), request.params.id, request.body.role),
  );

  app.get(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: "A user's public profile (no email)",
        params: idParamsSchema,
        response: { 200: publicUserSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => getPublicProfile(db, request.params.id),
  );

  const ADMIN_ROLES = {
    roles: ['admin'],
    forbiddenMessage: 'You must be an admin to change user roles',
  } as const;
  const moderationErrors = { ...errors, 409: errorBodySchema };

  app.patch(
    '/api/admin/users/:id/role',
    {
      config: ADMIN_ROLES,
      schema: {
        tags: ['admin'],
        summary: "Admin: grant and set another user's role",
        params: idParamsSchema,
        body: roleBodySchema,
        response: { 200: moderatedUserSchema, ...errors },
      },
    },
    async (request) => adminSetRole(db, actorOf(request), request.params.id, request.body.role),
  );

  app.delete(
    '/api/admin/users/:id/roles/:role',
    {
      config: ADMIN_ROLES,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: take seller, driver or admin away from another user (a current role falls back to buyer; the last admin keeps admin, 409)',
        params: removableRoleParamsSchema,
        response: { 200: moderatedUserSchema, ...moderationErrors },
      },
    },
    async (request) => removeUserRole(db, actorOf(request), request.params.id, request.params.role),
  );

  app.post(
    '/api/admin/users/:id/suspend',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' },
      schema: {
        tags: ['admin'],
        summary:
          'Admin: suspend another user: their sessions end, sign-in is refused, their listings are hidden',
        params: idParamsSchema,
        response: { 200: moderatedUserSchema, ...errors },
      },
    },
    async (request) => setUserSuspended(db, actorOf(request), request.params.id, true),
  );

  app.post(
    '/api/admin/users/:id/restore',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' },
      schema: {
        tags: ['admin'],
        summary: 'Admin: restore a suspended user',
        params: idParamsSchema,
        response: { 200: moderatedUserSchema, ...errors },
      },
    },
    async (request) => setUserSuspended(db, actorOf(request), request.params.id, false),
  );
}
