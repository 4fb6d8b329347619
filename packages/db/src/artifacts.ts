import { createHash } from 'node:crypto';
import type { Prisma } from './generated/prisma/client.ts';
import type { ArtifactKind } from './generated/prisma/enums.ts';

/**
 * The row of a write-once artifact: its bytes (a string is stored as UTF-8, exactly), their SHA-256
 * in hex and their size. The database's CHECK refuses a digest that does not match the content, so
 * every writer goes through this one function.
 */
export function artifactData(input: {
  tenantId: string;
  documentId: string | null;
  kind: ArtifactKind;
  contentType: string;
  content: string | Uint8Array;
  createdAt?: Date;
}): Prisma.ArtifactUncheckedCreateInput {
  const content =
    typeof input.content === 'string' ? Buffer.from(input.content, 'utf8') : Buffer.from(input.content);
  return {
    tenantId: input.tenantId,
    documentId: input.documentId,
    kind: input.kind,
    contentType: input.contentType,
    content,
    sha256: createHash('sha256').update(content).digest('hex'),
    sizeBytes: content.length,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  };
}
