import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import {
  ADMIN_PAGE_SIZE,
  auditStateSchema,
  adminActionSchema,
  offsetOf,
  pageCountOf,
  type AdminActionKind,
  type AdminActivity,
  type AdminActivityQuery,
  type AuditState,
  type Page,
} from '../../../domain/admin';
import { displayName } from '../../../domain/roles';
import {
  findLatestActionOn,
  insertAdminAction,
  listAdminActionsPage,
  listLatestActionsOn,
} from './audit.queries';

export interface AdminActionRecord {
  action: AdminActionKind;
  target: {
    type: 'user' | 'category' | 'commission_settings' | 'delivery_proof_settings' | 'order' | 'product';
    id: string | null;
    label: string;
  };
  before: AuditState | null;
  after: AuditState | null;
  now?: Date;
}

/**
 * Records an admin action in the audit trail (docs/rules/known-differences.md, Admin): who, what, before,
 * after and when. Pass the transaction that makes the change, so the record and the change are
 * kept or lost together.
 */
export async function recordAdminAction(
  tx: Db,
  actor: Pick<Actor, 'id'>,
  record: AdminActionRecord,
): Promise<void> {
  await insertAdminAction(tx, {
    actorId: actor.id,
    action: record.action,
    targetType: record.target.type,
    targetId: record.target.id,
    targetLabel: record.target.label,
    before: record.before,
    after: record.after,
    ...(record.now ? { createdAt: record.now } : {}),
  });
}

const stateOf = (value: unknown): AuditState | null => {
  const parsed = auditStateSchema.nullable().safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** GET /api/admin/activity: the audit trail, newest first, 10 a page. */
export async function listAdminActivity(db: Db, query: AdminActivityQuery): Promise<Page<AdminActivity>> {
  const { rows, total } = await listAdminActionsPage(db, {
    limit: ADMIN_PAGE_SIZE,
    offset: offsetOf(query.page),
  });
  return {
    items: rows.map(({ action, actorFirstName, actorLastName, actorEmail }) => ({
      id: action.id,
      action: adminActionSchema.parse(action.action),
      actorId: action.actorId,
      actorName: displayName({ firstName: actorFirstName, lastName: actorLastName, role: 'admin' }),
      actorEmail,
      targetType: action.targetType,
      targetId: action.targetId,
      targetLabel: action.targetLabel,
      before: stateOf(action.before),
      after: stateOf(action.after),
      createdAt: action.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    pageSize: ADMIN_PAGE_SIZE,
    pageCount: pageCountOf(total),
    totalIsLowerBound: false,
  };
}

/** The newest of these actions on one target, with who made it, or undefined (admin views name the last decision). */
export async function findLatestAdminAction(
  db: Db,
  target: { type: AdminActionRecord['target']['type']; id: string },
  actions: readonly string[],
) {
  return findLatestActionOn(db, target, actions);
}

/** For a page of targets: the newest of these actions on each, in one query. */
export async function listLatestAdminActions(
  db: Db,
  targetType: AdminActionRecord['target']['type'],
  targetIds: readonly string[],
  actions: readonly string[],
) {
  return listLatestActionsOn(db, targetType, targetIds, actions);
}
