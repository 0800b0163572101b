import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import { DEFAULT_DELIVERY_PROOF, type DeliveryProofSettings } from '../../../domain/delivery-proof';
import { recordAdminAction } from '../audit/audit.service';
import {
  findDeliveryProofSettings,
  saveDeliveryProofSettings,
  type DeliveryProofSettingsRow,
} from './delivery-proof.queries';

const settingsOf = (row: DeliveryProofSettingsRow | undefined): DeliveryProofSettings =>
  row
    ? {
        standardPhoto: row.standardPhoto,
        standardCode: row.standardCode,
        trailerPhoto: row.trailerPhoto,
        trailerCode: row.trailerCode,
      }
    : DEFAULT_DELIVERY_PROOF;

/**
 * GET /api/delivery-proof-settings and the admin's GET: which proof Mark Delivered needs; the
 * defaults while no admin saved any (docs/rules/deliveries.md, Deliveries).
 */
export async function getDeliveryProofSettings(db: Db): Promise<DeliveryProofSettings> {
  return settingsOf(await findDeliveryProofSettings(db));
}

/**
 * PUT /api/admin/delivery-proof-settings (docs/rules/known-differences.md, Admin): the change and its audit
 * record are one transaction; a save that changes nothing records nothing.
 */
export async function updateDeliveryProofSettings(
  db: Db,
  actor: Actor,
  next: DeliveryProofSettings,
  now: Date,
): Promise<DeliveryProofSettings> {
  return db.transaction(async (tx) => {
    const before = settingsOf(await findDeliveryProofSettings(tx, 'for update'));
    const fields = Object.keys(DEFAULT_DELIVERY_PROOF) as (keyof DeliveryProofSettings)[];
    if (!fields.some((field) => next[field] !== before[field])) return before;
    const saved = settingsOf(await saveDeliveryProofSettings(tx, next, now));
    await recordAdminAction(tx, actor, {
      action: 'delivery_proof.updated',
      target: { type: 'delivery_proof_settings', id: null, label: 'Proof of delivery' },
      before: { ...before },
      after: { ...saved },
      now,
    });
    return saved;
  });
}
