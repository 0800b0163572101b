import type { Db } from '../../db/client';
import {
  DEFAULT_COMMISSION_RATES,
  formatCommissionSettings,
  parseCommissionSettings,
  type CommissionRates,
  type CommissionSettingsText,
} from '../../../domain/fees';
import { findCommissionSettings } from './commission.queries';

/** The rates orders are priced with; the defaults of spec seller §9 if the row is missing. */
export async function getCommissionRates(db: Db): Promise<CommissionRates> {
  const row = await findCommissionSettings(db);
  return row ? parseCommissionSettings(row) : DEFAULT_COMMISSION_RATES;
}

/** GET /api/commission-settings: the 8 fields as strings, rates with 4 places, amounts with 2. */
export async function getCommissionSettings(db: Db): Promise<CommissionSettingsText> {
  return formatCommissionSettings(await getCommissionRates(db));
}
