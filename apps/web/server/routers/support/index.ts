import { createRouter } from '../../trpc/init.ts';
import { acknowledgeNotification } from './acknowledge-notification.ts';
import { listContingency } from './list-contingency.ts';
import { listEpisodes } from './list-episodes.ts';
import { listNotifications } from './list-notifications.ts';
import { listTenants } from './list-tenants.ts';
import { listUncertainDeliveries } from './list-uncertain-deliveries.ts';
import { reconcileDelivery } from './reconcile-delivery.ts';

/**
 * Operator staff across tenants (supportProcedure): the tenant directory and the support desk
 * (contingency across tenants, outage episodes, notifications with acknowledge, uncertain
 * deliveries with reconciliation). Reads record a support view in each tenant's audit log whose
 * data they return; the two actions record `support.acted`. Evidence bundles are a route handler
 * (app/api/documents/[documentId]/evidence).
 */
export const supportRouter = createRouter({
  tenants: listTenants,
  contingency: listContingency,
  episodes: listEpisodes,
  notifications: listNotifications,
  acknowledgeNotification,
  uncertainDeliveries: listUncertainDeliveries,
  reconcileDelivery,
});
