import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import type { Actor } from './sessions';
import type { Role } from '../../domain/roles';

/** The signed-in user, or 401 for visitors. */
export async function requireActor(request: FastifyRequest): Promise<Actor> {
  const actor = await request.getActor();
  if (!actor) throw new AppError('unauthorized', 'Unauthorized');
  return actor;
}

/** The signed-in user holding `role` among their granted roles, else 403 with `message`. */
export async function requireRole(request: FastifyRequest, role: Role, message: string): Promise<Actor> {
  const actor = await requireActor(request);
  if (!actor.roles.includes(role)) throw new AppError('forbidden', message);
  return actor;
}
