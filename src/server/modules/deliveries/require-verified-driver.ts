import { forbidden } from '../../platform/errors';
import { missingToTakeOrders } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { notVerifiedMessage } from '../../../domain/deliveries';

/**
 * Orders are offered to verified drivers and admins only (docs/rules/deliveries.md, Deliveries): an
 * unverified driver gets 403 with a sentence naming what is missing (vehicle image, license image,
 * admin approval), so the screen can say what to do next.
 */
export function requireVerifiedDriver(actor: Actor): void {
  const missing = missingToTakeOrders(actor);
  if (missing.length > 0) throw forbidden(notVerifiedMessage(missing));
}
