import { MIN_ABOVE_BASE_MESSAGE, commissionSettingsBodySchema } from '../../../domain/admin';
import { errorBodySchema } from '../../../domain/errors';
import { commissionSettingsSchema } from '../../../domain/fees';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { getCommissionSettings, updateCommissionSettings } from './commission.service';

const ADMIN_ONLY = {
  roles: ['admin'],
  forbiddenMessage: 'You must be an admin to manage commission settings',
} as const;

export function registerCommissionRoutes(app: App, { db, now }: AppContext): void {
  app.get(
    '/api/commission-settings',
    {
      schema: {
        tags: ['commission'],
        summary: 'The commission settings orders are priced with (public; rates 4 places, amounts 2)',
        response: { 200: commissionSettingsSchema },
      },
    },
    async () => getCommissionSettings(db),
  );

  app.get(
    '/api/admin/commission-settings',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: the commission settings (rates 4 places, amounts 2)',
        response: { 200: commissionSettingsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => getCommissionSettings(db),
  );

  app.patch(
    '/api/admin/commission-settings',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: set the eight settings (strings: rates and reductions 0–1 with up to 4 decimals, amounts ≥ 0 with up to 2); ' +
          'orders paid from now on use them, earlier orders keep theirs',
        body: commissionSettingsBodySchema,
        response: {
          200: commissionSettingsSchema,
          400: refusedWith([MIN_ABOVE_BASE_MESSAGE]),
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => updateCommissionSettings(db, actorOf(request), request.body, now()),
  );
}
