import { errorBodySchema } from '../../../domain/errors';
import {
  becomeRoleBodySchema,
  currentUserSchema,
  idParamsSchema,
  publicUserSchema,
  roleBodySchema,
  updateNamesBodySchema,
} from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import {
  adminSetRole,
  becomeRole,
  getPublicProfile,
  switchOwnRole,
  toCurrentUser,
  updateOwnNames,
} from './users.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function registerUserRoutes(app: App, { db }: AppContext): void {
  app.get(
    '/api/auth/user',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        response: { 200: currentUserSchema, 401: errorBodySchema },
      },
    },
    async (request) => toCurrentUser(actorOf(request)),
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

  app.patch(
    '/api/admin/users/:id/role',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to change user roles' },
      schema: {
        tags: ['admin'],
        summary: "Admin: grant and set another user's role",
        params: idParamsSchema,
        body: roleBodySchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => adminSetRole(db, actorOf(request), request.params.id, request.body.role),
  );
}
