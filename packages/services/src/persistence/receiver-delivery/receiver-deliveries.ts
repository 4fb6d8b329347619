/**
 * Writes and reads of `receiver_deliveries`: a delivery step as one guarded statement (the row
 * updated only if it is still where the step found it, then the stored ARECF and the document's
 * events), the row's creation, and the reads of a reconciliation.
 */
import type { Prisma } from '@ecf/db';
import {
  type Document,
  type Environment,
  type ReceiverDeliveryStatus,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import { applyWrite } from '../guarded-write.ts';
import {
  artifactsInsert,
  assignmentsOf,
  eventsInsert,
  type TArtifactInput,
  type TEventInput,
} from '../statements.ts';

/** Columns of `receiver_deliveries` a delivery step sets. */
export type TDeliveryColumns = Partial<{
  status: ReceiverDeliveryStatus;
  attempts: number;
  target_url: string | null;
  next_attempt_at: Date | null;
  last_error: unknown;
  arecf_artifact_id: string | null;
  reconciled_at: Date | null;
  reconciliation: unknown;
}>;

const DELIVERY_COLUMN_TYPES: Record<keyof TDeliveryColumns, string> = {
  status: '"ReceiverDeliveryStatus"',
  attempts: 'int',
  target_url: 'text',
  next_attempt_at: 'timestamptz',
  last_error: 'jsonb',
  arecf_artifact_id: 'uuid',
  reconciled_at: 'timestamptz',
  reconciliation: 'jsonb',
};

export type TDeliveryChange = {
  documentId: string;
  /** The guard: the row's status, and when given its attempts count and that it was never reconciled. */
  from: { status: ReceiverDeliveryStatus; attempts?: number; unreconciled?: boolean };
  set: TDeliveryColumns;
  /** Stored with the change (an ARECF), for the document. */
  artifacts?: TArtifactInput[];
  events?: TEventInput[];
};

/**
 * A receiver delivery's step as one statement: its row updated only if it is still in the status
 * (and attempts count) the step read, and then its artifacts and the document's events. True when
 * it moved. Coalesced on the pool like `changeDocument`.
 */
export async function changeDelivery(sql: TSql, change: TDeliveryChange): Promise<boolean> {
  const { moved } = await applyWrite(sql, {
    key: `delivery:${change.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => {
      const assignments = assignmentsOf(change.set, DELIVERY_COLUMN_TYPES, parameter, 'changeDelivery');
      const guard = [
        `document_id = ${parameter(change.documentId, 'uuid')}`,
        `status = ${parameter(change.from.status, '"ReceiverDeliveryStatus"')}`,
      ];
      if (change.from.attempts !== undefined)
        guard.push(`attempts = ${parameter(change.from.attempts, 'int')}`);
      if (change.from.unreconciled === true) guard.push('reconciled_at IS NULL');
      const moved = `moved${suffix}`;
      const parts = [
        `${moved} AS (UPDATE receiver_deliveries SET ${[...assignments, 'updated_at = now()'].join(', ')}
          WHERE ${guard.join(' AND ')}
          RETURNING document_id AS id, tenant_id)`,
        ...artifactsInsert(change.artifacts ?? [], parameter, moved, `artifact${suffix}`),
      ];
      const events = eventsInsert(change.events ?? [], parameter, moved, `events${suffix}`);
      if (events !== undefined) parts.push(events);
      return parts;
    },
  });
  return moved;
}

/** What a delivery step reads of its row. */
export type TDeliveryRow = {
  status: ReceiverDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: Prisma.JsonValue | null;
};

/** The document's delivery row, created `pending` when it has none yet (a delivery enqueued by hand). */
export async function ensureReceiverDelivery(
  database: TDatabase,
  document: { id: string; tenantId: string },
): Promise<TDeliveryRow> {
  await database.receiverDelivery.createMany({
    data: [{ documentId: document.id, tenantId: document.tenantId, status: 'pending' }],
    skipDuplicates: true,
  });
  return database.receiverDelivery.findUniqueOrThrow({
    where: { documentId: document.id },
    select: { status: true, attempts: true, nextAttemptAt: true, lastError: true },
  });
}

/** A receiver delivery as a reconciliation reads and answers it. */
export type TReceiverDelivery = Prisma.ReceiverDeliveryModel;

/**
 * A tenant's document in one environment with its issuer RNC and its delivery (null when it has
 * none); null when there is no such document for this tenant and environment.
 */
export async function findDocumentWithDelivery(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; documentId: string },
): Promise<(Document & { tenant: { rnc: string }; delivery: TReceiverDelivery | null }) | null> {
  return database.document.findFirst({
    where: { id: input.documentId, tenantId: input.tenantId, environment: input.environment },
    include: { tenant: { select: { rnc: true } }, delivery: true },
  });
}

/** The delivery row of a document (it exists: read after a reconciliation wrote it). */
export async function getReceiverDelivery(
  database: TDatabase,
  documentId: string,
): Promise<TReceiverDelivery> {
  return database.receiverDelivery.findUniqueOrThrow({ where: { documentId } });
}
