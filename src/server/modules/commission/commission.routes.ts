import { commissionSettingsSchema } from '../../../domain/fees';
import type { App, AppContext } from '../../platform/context';
import { getCommissionSettings } from './commission.service';

export function registerCommissionRoutes(app: App, { db }: AppContext): void {
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
}
