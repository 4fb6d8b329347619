/**
 * Support: the operator's support desk across tenants (documents in contingency, outage episodes,
 * operator notifications and their acknowledgement, uncertain receiver deliveries and their
 * reconciliation) and where a document belongs. The portal records support's views of each
 * tenant's data and its actions in that tenant's audit log.
 */
export { contingencyNextAttemptOf, findContingencyAcrossTenants } from './find-contingency-across-tenants.ts';
export { findOutageEpisodes } from './find-outage-episodes.ts';
export { findOperatorNotifications } from './find-operator-notifications.ts';
export { acknowledgeOperatorNotification } from './acknowledge-operator-notification.ts';
export { findUncertainDeliveries } from './find-uncertain-deliveries.ts';
export { getDocumentScope } from './get-document-scope.ts';
export { reconcileDeliveryForSupport } from './reconcile-delivery-for-support.ts';
export {
  OPERATOR_NOTIFICATION_WINDOW_MS,
  type TOperatorNotificationView,
} from './operator-notification-view.ts';
