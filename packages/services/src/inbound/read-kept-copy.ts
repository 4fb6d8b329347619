/**
 * The kept copy of a received document (e-CF or ACECF), its SHA-256 recomputed on every read: a
 * copy that no longer matches the digest recorded at reception is never served.
 */
import { createHash } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import { findInboundArtifact } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

export async function readKeptCopy(options: {
  database: TDatabase;
  tenantId: string;
  inboundDocumentId: string;
  artifactId: string | null;
  notAvailable: () => AppError;
}): Promise<Buffer> {
  if (options.artifactId === null) throw options.notAvailable();
  const artifact = await findInboundArtifact(options.database, {
    tenantId: options.tenantId,
    artifactId: options.artifactId,
  });
  if (!artifact) throw options.notAvailable();
  const actual = createHash('sha256').update(artifact.content).digest('hex');
  if (actual !== artifact.sha256.toLowerCase())
    throw new AppError(
      'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED',
      'The kept copy of this document fails its SHA-256 check and is not served; support has the details.',
      { details: { inboundDocumentId: options.inboundDocumentId } },
    );
  return artifact.content;
}
