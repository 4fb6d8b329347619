/**
 * The reads of a document's evidence bundle: the document, every artifact stored for it, its
 * event log and its receiver delivery, all within one tenant.
 */
import type { Document, TDatabase } from '@ecf/db';
import type { TReceiverDelivery } from '../receiver-delivery/receiver-deliveries.ts';

export type TEvidenceArtifact = {
  id: string;
  kind: string;
  contentType: string;
  content: Buffer;
  sha256: string;
  sizeBytes: number;
  createdAt: Date;
};

export type TEvidenceEvent = {
  id: string;
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  data: unknown;
  createdAt: Date;
};

/** A tenant's document with everything stored about it; null when the tenant has no such document. */
export async function loadDocumentEvidence(
  database: TDatabase,
  input: { tenantId: string; documentId: string },
): Promise<{
  document: Document;
  artifacts: TEvidenceArtifact[];
  events: TEvidenceEvent[];
  delivery: TReceiverDelivery | null;
} | null> {
  const document = await database.document.findFirst({
    where: { id: input.documentId, tenantId: input.tenantId },
  });
  if (document === null) return null;
  const [artifacts, events, delivery] = await Promise.all([
    database.artifact.findMany({
      where: { documentId: document.id, tenantId: input.tenantId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    database.documentEvent.findMany({
      where: { documentId: document.id },
      orderBy: { id: 'asc' },
    }),
    database.receiverDelivery.findUnique({ where: { documentId: document.id } }),
  ]);
  return {
    document,
    artifacts: artifacts.map((artifact) => ({
      id: artifact.id,
      kind: artifact.kind,
      contentType: artifact.contentType,
      content: Buffer.from(artifact.content),
      sha256: artifact.sha256,
      sizeBytes: artifact.sizeBytes,
      createdAt: artifact.createdAt,
    })),
    events: events.map((event) => ({
      id: event.id.toString(),
      type: event.type,
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      data: event.data,
      createdAt: event.createdAt,
    })),
    delivery,
  };
}
