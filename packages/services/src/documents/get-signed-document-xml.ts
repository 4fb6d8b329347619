import type { Environment, TDatabase } from '@ecf/db';
import { findSignedXmlArtifact, findTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { getDocument } from './get-document.ts';

/**
 * The signed XML of an issued e-CF exactly as stored (write-once artifact `signed_xml`), with its
 * download name `<RNCEmisor><eNCF>.xml`. Before signing: 409 `DOCUMENT_NOT_SIGNED`; a
 * `transmission_failed` document that was never signed: 404 (state table).
 */
export async function getSignedDocumentXml(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
}) {
  const document = await getDocument(options);
  const artifact = await findSignedXmlArtifact(options.database, {
    tenantId: options.tenantId,
    documentId: document.id,
  });
  if (!artifact) {
    if (document.status === 'transmission_failed') {
      throw new AppError('NOT_FOUND', `The document ${document.encf} was never signed.`, {
        details: { documentId: document.id, status: document.status, reason: 'never_signed' },
      });
    }
    throw new AppError('DOCUMENT_NOT_SIGNED', `The document ${document.encf} is not signed yet.`, {
      details: { documentId: document.id, status: document.status },
    });
  }
  const tenant = await findTenant(options.database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
  return { content: artifact.content, fileName: `${tenant.rnc}${document.encf}.xml`, document };
}
