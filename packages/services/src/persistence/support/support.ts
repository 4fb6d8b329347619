/**
 * Reads and the one write of the operator's support desk, across tenants: documents in
 * contingency, outage episodes, operator notifications (and their acknowledgement), uncertain
 * receiver deliveries, and where a document belongs (its tenant and environment).
 */
import type { Document, Environment, TDatabase } from '@ecf/db';

/** A tenant as the support desk names it. */
export type TSupportTenantRef = { id: string; rnc: string; legalName: string; tradeName: string | null };

const TENANT_REF = { select: { id: true, rnc: true, legalName: true, tradeName: true } } as const;

/** Documents in contingency of every tenant (one environment or all), longest waiting first (at most 1,000). */
export async function findContingencyDocumentsOfAllTenants(
  database: TDatabase,
  input: { environment?: Environment | undefined },
): Promise<Array<Document & { tenant: TSupportTenantRef }>> {
  return database.document.findMany({
    where: {
      status: 'contingency',
      ...(input.environment === undefined ? {} : { environment: input.environment }),
    },
    include: { tenant: TENANT_REF },
    orderBy: [{ contingencySince: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
}

export type TEpisodeRow = {
  id: string;
  environment: Environment;
  service: string;
  code: string;
  degradedSince: Date;
  restoredAt: Date | null;
};

/** Outage episodes (open ones and those that began since `since`), newest first (at most `take`). */
export async function findTaxauthEpisodeRows(
  database: TDatabase,
  input: { since: Date; take: number },
): Promise<TEpisodeRow[]> {
  return database.taxauthEpisode.findMany({
    where: { OR: [{ restoredAt: null }, { degradedSince: { gte: input.since } }] },
    orderBy: [{ degradedSince: 'desc' }, { id: 'desc' }],
    take: input.take,
    select: {
      id: true,
      environment: true,
      service: true,
      code: true,
      degradedSince: true,
      restoredAt: true,
    },
  });
}

export type TOperatorNotificationRow = {
  id: string;
  kind: string;
  tenantId: string | null;
  documentId: string | null;
  data: unknown;
  createdAt: Date;
  sentAt: Date | null;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
};

/** Operator notifications recorded since `since`, newest first (at most `take`). */
export async function findOperatorNotificationRows(
  database: TDatabase,
  input: { since: Date; take: number },
): Promise<TOperatorNotificationRow[]> {
  return database.operatorNotification.findMany({
    where: { createdAt: { gte: input.since } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.take,
  });
}

/** One operator notification; null when there is none. */
export async function findOperatorNotificationRow(
  database: TDatabase,
  id: string,
): Promise<TOperatorNotificationRow | null> {
  return database.operatorNotification.findUnique({ where: { id } });
}

/**
 * Marks a notification acknowledged by a support user unless it already is (first one wins). True
 * when this call acknowledged it.
 */
export async function markOperatorNotificationAcknowledged(
  database: TDatabase,
  input: { id: string; userId: string; at: Date },
): Promise<boolean> {
  const marked = await database.operatorNotification.updateMany({
    where: { id: input.id, acknowledgedAt: null },
    data: { acknowledgedAt: input.at, acknowledgedBy: input.userId },
  });
  return marked.count > 0;
}

/** Tenants by id (names for the desk). */
export async function findTenantRefs(database: TDatabase, ids: string[]): Promise<TSupportTenantRef[]> {
  if (ids.length === 0) return [];
  return database.tenant.findMany({ where: { id: { in: ids } }, ...TENANT_REF });
}

/** Documents by id, their eNCF and environment (names for the desk). */
export async function findDocumentRefs(
  database: TDatabase,
  ids: string[],
): Promise<Array<{ id: string; encf: string; environment: Environment }>> {
  if (ids.length === 0) return [];
  return database.document.findMany({
    where: { id: { in: ids } },
    select: { id: true, encf: true, environment: true },
  });
}

/** Users by id (who acknowledged). */
export async function findUserRefs(
  database: TDatabase,
  ids: string[],
): Promise<Array<{ id: string; name: string; email: string }>> {
  if (ids.length === 0) return [];
  return database.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, email: true },
  });
}

export type TUncertainDeliveryRow = {
  documentId: string;
  tenantId: string;
  status: string;
  targetUrl: string | null;
  attempts: number;
  lastError: unknown;
  updatedAt: Date;
  document: { encf: string; environment: Environment; buyerRnc: string | null; status: string };
  tenant: TSupportTenantRef;
};

/** Receiver deliveries left `uncertain` and not reconciled, of every tenant, oldest first (at most 1,000). */
export async function findUncertainDeliveryRows(database: TDatabase): Promise<TUncertainDeliveryRow[]> {
  const rows = await database.receiverDelivery.findMany({
    where: { status: 'uncertain', reconciledAt: null },
    orderBy: [{ updatedAt: 'asc' }, { documentId: 'asc' }],
    take: 1000,
    include: {
      document: {
        select: {
          encf: true,
          environment: true,
          buyerRnc: true,
          status: true,
          tenant: TENANT_REF,
        },
      },
    },
  });
  return rows.map(({ document: { tenant, ...document }, ...row }) => ({
    documentId: row.documentId,
    tenantId: row.tenantId,
    status: row.status,
    targetUrl: row.targetUrl,
    attempts: row.attempts,
    lastError: row.lastError,
    updatedAt: row.updatedAt,
    document,
    tenant,
  }));
}

/** Where a document belongs (any tenant): its tenant and environment; null when there is none. */
export async function findDocumentScope(
  database: TDatabase,
  documentId: string,
): Promise<{ id: string; tenantId: string; environment: Environment } | null> {
  return database.document.findUnique({
    where: { id: documentId },
    select: { id: true, tenantId: true, environment: true },
  });
}
