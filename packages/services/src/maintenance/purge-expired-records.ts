import { sqlPoolOf, type TDatabase } from '@ecf/db';
import {
  deleteExpiredInboundRefusals,
  deleteExpiredPortalExports,
  deleteExpiredReceptionCredentials,
  deleteExpiredRecords,
  deleteExpiredWebhookInboxRequests,
  deleteRecoveredWorkerInstances,
} from '../persistence/index.ts';

/** How long the row of a dead worker is kept after its lost jobs were looked after (for support). */
const WORKER_INSTANCE_RETENTION_MS = 7 * 24 * 3600_000;

/** The per-sender day counters of refused deliveries are kept this long after their day (support). */
const REFUSAL_COUNTER_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Deletes rate-limit windows, idempotency records, portal sessions and password resets whose time
 * is over (before `before`), the reception's expired seeds and tokens, its compact records of
 * unverified deliveries past their `retain_until` and their per-sender day counters older than a
 * week, and the leases of dead workers looked after more than a week before it.
 */
export async function purgeExpiredRecords(options: { database: TDatabase; before: Date }): Promise<{
  counters: number;
  idempotencyRecords: number;
  portalSessions: number;
  passwordResets: number;
  workerInstances: number;
  receptionSeeds: number;
  receptionTokens: number;
  inboundRefusals: number;
  inboundRefusalDays: number;
  portalExports: number;
  webhookInboxRequests: number;
}> {
  const expired = await deleteExpiredRecords(options.database, options.before);
  const workerInstances = await deleteRecoveredWorkerInstances(
    sqlPoolOf(options.database),
    new Date(options.before.getTime() - WORKER_INSTANCE_RETENTION_MS),
  );
  const reception = await deleteExpiredReceptionCredentials(options.database, options.before);
  const refusals = await deleteExpiredInboundRefusals(options.database, {
    before: options.before,
    countersBefore: new Date(options.before.getTime() - REFUSAL_COUNTER_RETENTION_MS),
  });
  // Portal exports past their 7 days, files included (issue 27).
  const portalExports = await deleteExpiredPortalExports(options.database, options.before);
  // TesteCF test inboxes keep 7 days (an inbox trims itself on each request; this clears quiet ones).
  const webhookInboxRequests = await deleteExpiredWebhookInboxRequests(options.database, options.before);
  return { ...expired, workerInstances, ...reception, ...refusals, portalExports, webhookInboxRequests };
}
