import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import { canChangeOrderStatus, canManageDelivery } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  DELIVERY_CODE_LOCK_MINUTES,
  DELIVERY_CODE_LOCKED,
  DELIVERY_CODE_MAX_WRONG_TRIES,
  DELIVERY_CODE_MISMATCH,
  proofMissingMessage,
  proofNeededFor,
  type DeliverBody,
} from '../../../domain/delivery-proof';
import { orderStatusSchema } from '../../../domain/order-status';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import { getDeliveryProofSettings } from '../delivery-proof/delivery-proof.service';
import { claimUpload } from '../uploads/uploads.service';
import { finishStep, recordStepInTransaction, refusal } from './change-order-status';
import type { OrderDeps } from './order-deps';
import type { AfterCommit } from './order-steps';
import { deliveryCodeMatches } from './delivery-code';
import { countWrongDeliveryCode, findOrderById, setDropOffProof } from './orders.queries';
import { ORDER_CHANGED_MEANWHILE } from './record-status-change';

const tooManyWrongCodes = () => new AppError('rate_limited', DELIVERY_CODE_LOCKED);

/**
 * POST /api/orders/{id}/deliver, Mark Delivered with its proof (docs/rules/deliveries.md, Deliveries):
 * only the order's assigned driver (anyone else 404), while it is in transit (a delivered order 409,
 * so the code is used once). The marketplace's settings say whether a drop-off photo, the buyer's
 * code or both are needed (400 naming what is missing). The code is compared in constant time; a
 * wrong one is counted in the database and the fifth locks the code for 15 minutes (429). The step,
 * the delivered time, the proof, the photo's claim and the payouts are one transaction; the payouts,
 * live events and mail then go as for every status step.
 */
export async function deliverOrder(
  deps: OrderDeps,
  actor: Actor,
  id: string,
  body: DeliverBody,
): Promise<Order> {
  const found = await findOrderById(deps.db, id);
  if (!found || !canManageDelivery(actor, found.order)) throw notFound(ORDER_NOT_FOUND);
  const { order } = found;
  const from = orderStatusSchema.parse(order.status);
  if (!canChangeOrderStatus(actor, { ...order, status: from }, 'delivered')) {
    throw refusal(actor, found, 'delivered');
  }
  const needed = proofNeededFor(await getDeliveryProofSettings(deps.db), order);
  const missing = {
    photo: needed.photo && !body.dropOffPhotoUrl,
    code: needed.code && body.code === undefined,
  };
  if (missing.photo || missing.code) {
    throw badRequest(proofMissingMessage(missing), {
      ...(missing.photo ? { dropOffPhotoUrl: 'A drop-off photo is required' } : {}),
      ...(missing.code ? { code: "The buyer's delivery code is required" } : {}),
    });
  }
  const now = deps.now();
  if (body.code !== undefined) {
    if (order.deliveryCodeLockedUntil && order.deliveryCodeLockedUntil > now) throw tooManyWrongCodes();
    if (!deliveryCodeMatches(order.deliveryCode, body.code)) {
      await countWrongDeliveryCode(deps.db, {
        orderId: id,
        maxTries: DELIVERY_CODE_MAX_WRONG_TRIES,
        lockedUntil: new Date(now.getTime() + DELIVERY_CODE_LOCK_MINUTES * 60_000),
      });
      throw badRequest(DELIVERY_CODE_MISMATCH, { code: DELIVERY_CODE_MISMATCH });
    }
  }
  const place =
    body.latitude !== undefined && body.longitude !== undefined
      ? { latitude: body.latitude, longitude: body.longitude }
      : null;
  let afterCommit: AfterCommit | undefined;
  const record = async (tx: Db, dropOffPhotoUrl: string | null) => {
    afterCommit = await recordStepInTransaction(tx, deps, { order, from, to: 'delivered', actor, now });
    const saved = await setDropOffProof(tx, {
      orderId: id,
      driverId: actor.id,
      dropOffPhotoUrl,
      codeConfirmed: body.code !== undefined,
      place,
    });
    if (!saved) throw conflict(ORDER_CHANGED_MEANWHILE);
  };
  if (body.dropOffPhotoUrl) {
    // The claim and the step are one transaction: a refused step leaves the upload the driver's.
    await claimUpload(deps, actor, body.dropOffPhotoUrl, {
      purpose: 'drop-off',
      orderId: id,
      alreadyHeld: false,
      assign: (tx, objectPath) => record(tx, objectPath),
    });
  } else {
    await deps.db.transaction((tx) => record(tx, null));
  }
  return finishStep(deps, actor, id, { from, to: 'delivered', afterCommit });
}
