/**
 * Notifications for the service's operators (`operator_notifications`, at most one per kind and
 * document), recorded with the document's event in one statement.
 */
import { randomUUID } from 'node:crypto';
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { applyWrite } from '../guarded-write.ts';
import { eventsInsert, type TEventInput } from '../statements.ts';

/** A notification for an operator, as given to `notifyOperator`. */
export type TOperatorNotification = {
  id: string;
  kind: string;
  tenantId: string | null;
  documentId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
};

/**
 * Records the notification of `kind` for a document unless it exists, and only then `event` in
 * the document's log: one statement. True when this call recorded it.
 */
export async function recordOperatorNotification(
  database: TDatabase,
  input: {
    kind: string;
    document: { id: string; tenantId: string };
    data: Record<string, unknown>;
    at: Date;
    event: TEventInput;
  },
): Promise<boolean> {
  const { moved } = await applyWrite(sqlPoolOf(database), {
    key: `notification:${input.kind}:${input.document.id.toLowerCase()}`,
    parts: (suffix, parameter) => {
      const recorded = `moved${suffix}`;
      const parts = [
        `${recorded} AS (INSERT INTO operator_notifications (id, kind, tenant_id, document_id, data, created_at)
          VALUES (${parameter(randomUUID(), 'uuid')}, ${parameter(input.kind, 'text')}, ${parameter(input.document.tenantId, 'uuid')},
            ${parameter(input.document.id, 'uuid')}, ${parameter(JSON.stringify(input.data), 'jsonb')}, ${parameter(input.at, 'timestamptz')})
          ON CONFLICT (kind, document_id) DO NOTHING
          RETURNING document_id AS id, tenant_id)`,
      ];
      const events = eventsInsert([input.event], parameter, recorded, `events${suffix}`);
      if (events !== undefined) parts.push(events);
      return parts;
    },
  });
  return moved;
}

/** The notification of `kind` for a document that was recorded but not sent yet; null when none. */
export async function findUnsentOperatorNotification(
  database: TDatabase,
  input: { kind: string; documentId: string },
): Promise<TOperatorNotification | null> {
  const pending = await database.operatorNotification.findFirst({
    where: { kind: input.kind, documentId: input.documentId, sentAt: null },
  });
  if (pending === null) return null;
  return {
    id: pending.id,
    kind: pending.kind,
    tenantId: pending.tenantId,
    documentId: pending.documentId,
    data: (pending.data ?? {}) as Record<string, unknown>,
    createdAt: pending.createdAt,
  };
}

/** Marks a notification sent; true when this call marked it (another run may have been first). */
export async function markOperatorNotificationSent(
  database: TDatabase,
  input: { id: string; at: Date },
): Promise<boolean> {
  const marked = await database.operatorNotification.updateMany({
    where: { id: input.id, sentAt: null },
    data: { sentAt: input.at },
  });
  return marked.count > 0;
}
