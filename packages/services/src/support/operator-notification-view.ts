import type { Environment, TDatabase } from '@ecf/db';
import {
  findDocumentRefs,
  findTenantRefs,
  findUserRefs,
  type TOperatorNotificationRow,
} from '../persistence/index.ts';

/** How long the support desk shows operator notifications. */
export const OPERATOR_NOTIFICATION_WINDOW_MS = 72 * 3600_000;

export type TOperatorNotificationView = {
  id: string;
  kind: string;
  message: string | null;
  data: Record<string, unknown>;
  tenant: { id: string; rnc: string; name: string } | null;
  document: { id: string; encf: string; environment: Environment } | null;
  createdAt: string;
  sentAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: { id: string; name: string; email: string } | null;
};

/** Notifications as the desk shows them: with their tenant, document and acknowledging user named. */
export async function viewsOfNotifications(
  database: TDatabase,
  rows: TOperatorNotificationRow[],
): Promise<TOperatorNotificationView[]> {
  const distinct = (values: Array<string | null>) => [
    ...new Set(values.filter((value): value is string => value !== null)),
  ];
  const [tenants, documents, users] = await Promise.all([
    findTenantRefs(database, distinct(rows.map((row) => row.tenantId))),
    findDocumentRefs(database, distinct(rows.map((row) => row.documentId))),
    findUserRefs(database, distinct(rows.map((row) => row.acknowledgedBy))),
  ]);
  return rows.map((row) => {
    const data =
      row.data !== null && typeof row.data === 'object' && !Array.isArray(row.data)
        ? (row.data as Record<string, unknown>)
        : {};
    const tenant = tenants.find((candidate) => candidate.id === row.tenantId);
    const document = documents.find((candidate) => candidate.id === row.documentId);
    const user = users.find((candidate) => candidate.id === row.acknowledgedBy);
    return {
      id: row.id,
      kind: row.kind,
      message: typeof data['message'] === 'string' ? data['message'] : null,
      data,
      tenant:
        tenant === undefined
          ? null
          : { id: tenant.id, rnc: tenant.rnc, name: tenant.tradeName ?? tenant.legalName },
      document: document === undefined ? null : document,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
      acknowledgedBy: user === undefined ? null : user,
    };
  });
}
