/**
 * Reads of one document's record for its page in the portal (and anyone who shows a document's
 * history): its event log, the list of its artifacts (metadata, never the bytes) and its receiver
 * delivery. Each is scoped to the tenant: another tenant's document id reads as nothing.
 */
import type { ArtifactKind, DocumentStatus, Prisma, ReceiverDeliveryStatus, TDatabase } from '@ecf/db';

type TDocumentScope = { tenantId: string; documentId: string };

export type TDocumentEventRow = {
  id: bigint;
  type: string;
  fromStatus: DocumentStatus | null;
  toStatus: DocumentStatus | null;
  data: Prisma.JsonValue;
  createdAt: Date;
};

/** The document's event log in the order it was written (at most 500 entries). */
export async function findDocumentEventRows(
  database: TDatabase,
  input: TDocumentScope,
): Promise<TDocumentEventRow[]> {
  return database.documentEvent.findMany({
    where: { documentId: input.documentId, tenantId: input.tenantId },
    orderBy: { id: 'asc' },
    take: 500,
    select: { id: true, type: true, fromStatus: true, toStatus: true, data: true, createdAt: true },
  });
}

export type TArtifactListRow = {
  id: string;
  kind: ArtifactKind;
  contentType: string;
  sha256: string;
  sizeBytes: number;
  createdAt: Date;
};

/** The document's stored artifacts, oldest first, without their content. */
export async function findDocumentArtifactRows(
  database: TDatabase,
  input: TDocumentScope,
): Promise<TArtifactListRow[]> {
  return database.artifact.findMany({
    where: { documentId: input.documentId, tenantId: input.tenantId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, kind: true, contentType: true, sha256: true, sizeBytes: true, createdAt: true },
  });
}

export type TDeliveryListRow = {
  status: ReceiverDeliveryStatus;
  targetUrl: string | null;
  attempts: number;
  lastError: Prisma.JsonValue;
  nextAttemptAt: Date | null;
  arecfArtifactId: string | null;
  reconciledAt: Date | null;
  updatedAt: Date;
};

/** The document's receiver delivery; null when it has none (not accepted yet, or never needed). */
export async function findDocumentDeliveryRow(
  database: TDatabase,
  input: TDocumentScope,
): Promise<TDeliveryListRow | null> {
  return database.receiverDelivery.findFirst({
    where: { documentId: input.documentId, tenantId: input.tenantId },
    select: {
      status: true,
      targetUrl: true,
      attempts: true,
      lastError: true,
      nextAttemptAt: true,
      arecfArtifactId: true,
      reconciledAt: true,
      updatedAt: true,
    },
  });
}
