import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import type { CommissionSettingsBody } from '../../../domain/admin';
import {
  DEFAULT_COMMISSION_RATES,
  formatCommissionSettings,
  parseCommissionSettings,
  type CommissionRates,
  type CommissionSettingsText,
} from '../../../domain/fees';
import { recordAdminAction } from '../audit/audit.service';
import {
  findCommissionSettings,
  findCommissionSettingsForUpdate,
  saveCommissionSettings,
} from './commission.queries';

/**
 * The rates orders are priced with; the default settings when the row is missing
 * (docs/rules/money.md, Fees and commission).
 */
export async function getCommissionRates(db: Db): Promise<CommissionRates> {
  const row = await findCommissionSettings(db);
  return row ? parseCommissionSettings(row) : DEFAULT_COMMISSION_RATES;
}

/** GET /api/commission-settings: the 8 fields as strings, rates with 4 places, amounts with 2. */
export async function getCommissionSettings(db: Db): Promise<CommissionSettingsText> {
  return formatCommissionSettings(await getCommissionRates(db));
}

/**
 * PATCH /api/admin/commission-settings (docs/rules/known-differences.md, Admin): the body schema has checked
 * every field. The settings apply to orders paid from now on: every order keeps the rates and
 * amounts it was priced with (docs/rules/money.md, Fees and commission). The change and its audit
 * record are one transaction; a save that changes nothing records nothing.
 */
export async function updateCommissionSettings(
  db: Db,
  actor: Actor,
  body: CommissionSettingsBody,
  now: Date,
): Promise<CommissionSettingsText> {
  // Normalised: "0.1" is stored and answered as "0.1000", "500" as "500.00".
  const next = formatCommissionSettings(parseCommissionSettings(body));
  return db.transaction(async (tx) => {
    const row = await findCommissionSettingsForUpdate(tx);
    const before = formatCommissionSettings(row ? parseCommissionSettings(row) : DEFAULT_COMMISSION_RATES);
    const isChange = (Object.keys(next) as (keyof CommissionSettingsText)[]).some(
      (field) => next[field] !== before[field],
    );
    if (!isChange) return before;
    const saved = formatCommissionSettings(
      parseCommissionSettings(await saveCommissionSettings(tx, next, now)),
    );
    await recordAdminAction(tx, actor, {
      action: 'commission.updated',
      target: { type: 'commission_settings', id: null, label: 'Commission settings' },
      before: { ...before },
      after: { ...saved },
      now,
    });
    return saved;
  });
}
