import type { Document, Environment, TDatabase } from '@ecf/db';
import { findSignedXmlArtifact, findTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { getDocument } from './get-document.ts';

/**
 * The signed XML of an issued e-CF exactly as stored (write-once artifact `signed_xml`), with its
 * download name `<RNCEmisor><eNCF>.xml`. Another tenant's or environment's document, or a
 * `transmission_failed` document that was never signed: 404 (state table). Before signing: 409
 * `DOCUMENT_NOT_SIGNED`.
 *
 * `beforeContent` runs once those 404s are ruled out and before the 409 and the content: the API
 * negotiates `Accept` there, so a refused `Accept` never reveals whether another tenant's document
 * exists, and a document that does exist gets its 400 before any state-dependent answer.
 */
export async function getSignedDocumentXml(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
  beforeContent?: (document: Document) => void;
}) {
  const document = await getDocument(options);
  const artifact = await findSignedXmlArtifact(options.database, {
    tenantId: options.tenantId,
    documentId: document.id,
  });
  if (!artifact && document.status === 'transmission_failed') {
    throw new AppError('NOT_FOUND', `The document ${document.encf} was never signed.`, {
      details: { documentId: document.id, status: document.status, reason: 'never_signed' },
    });
  }
  options.beforeContent?.(document);
  if (!artifact) {
    throw new AppError('DOCUMENT_NOT_SIGNED', `The document ${document.encf} is not signed yet.`, {
      details: { documentId: document.id, status: document.status },
    });
  }
  const tenant = await findTenant(options.database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
  return { content: artifact.content, fileName: `${tenant.rnc}${document.encf}.xml`, document };
}
