import { deliveryProofSettingsBodySchema, deliveryProofSettingsSchema } from '../../../domain/delivery-proof';
import { errorBodySchema } from '../../../domain/errors';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { getDeliveryProofSettings, updateDeliveryProofSettings } from './delivery-proof.service';

const ADMIN_ONLY = {
  roles: ['admin'],
  forbiddenMessage: 'You must be an admin to manage proof of delivery',
} as const;

/** Which proof Mark Delivered needs (docs/rules/deliveries.md, Deliveries; docs/rules/admin.md, Admin). */
export function registerDeliveryProofRoutes(app: App, { db, now }: AppContext): void {
  app.get(
    '/api/delivery-proof-settings',
    {
      schema: {
        tags: ['deliveries'],
        summary: 'Which proof Mark Delivered needs, for standard and for trailer orders (signed in)',
        response: { 200: deliveryProofSettingsSchema, 401: errorBodySchema },
      },
    },
    async () => getDeliveryProofSettings(db),
  );

  app.get(
    '/api/admin/delivery-proof-settings',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: which proof Mark Delivered needs',
        response: { 200: deliveryProofSettingsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => getDeliveryProofSettings(db),
  );

  app.put(
    '/api/admin/delivery-proof-settings',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          "Admin: set the four switches (a drop-off photo, the buyer's code; for standard and for trailer orders)",
        body: deliveryProofSettingsBodySchema,
        response: {
          200: deliveryProofSettingsSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => updateDeliveryProofSettings(db, actorOf(request), request.body, now()),
  );
}
