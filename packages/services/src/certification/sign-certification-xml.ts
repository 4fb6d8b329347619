import { createHash } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import { signForeignXml } from '@ecf/fiscal-core';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TCertificationXmlKind } from '@ecf/contract';

/** Largest XML accepted for signing (the tax authority's forms are a few KB). */
export const CERTIFICATION_XML_MAX_BYTES = 512 * 1024;

/**
 * Signs the application or the sworn declaration the tax authority's portal generated (Partner
 * `certification-xml-signatures`) with the account's certificate, enveloped XMLDSig as the tax
 * authority's signing tool does (`signForeignXml`: the document's own bytes canonicalized by
 * xml-crypto). 409 `CERTIFICATE_NOT_ACTIVE` without a certificate; 422 `CERTIFICATION_XML_INVALID`
 * for XML that cannot be signed (not well-formed, a DOCTYPE).
 */
export async function signCertificationXml(
  options: TCertificateSource & {
    database: TDatabase;
    tenantId: string;
    kind: TCertificationXmlKind;
    xml: string;
    now: Date;
  },
): Promise<{ kind: TCertificationXmlKind; signedXml: string; sha256: string; signedAt: string }> {
  if (Buffer.byteLength(options.xml, 'utf8') > CERTIFICATION_XML_MAX_BYTES) {
    throw new AppError(
      'CERTIFICATION_XML_INVALID',
      `The XML may have at most ${CERTIFICATION_XML_MAX_BYTES} bytes.`,
      {
        details: { reason: 'too_large', maxBytes: CERTIFICATION_XML_MAX_BYTES },
      },
    );
  }
  const resolved = await resolveDocumentCertificate({ ...options, step: 'signCertificationXml' });
  if (!resolved.ok) throw new AppError('CERTIFICATE_NOT_ACTIVE', resolved.message);
  const signed = signForeignXml(options.xml, resolved.certificate);
  if (!signed.success) {
    throw new AppError('CERTIFICATION_XML_INVALID', 'The XML cannot be signed.', {
      details: { reason: 'not_signable', issues: signed.issues },
    });
  }
  const signedXml = signed.data.xml;
  return {
    kind: options.kind,
    signedXml,
    sha256: createHash('sha256').update(signedXml, 'utf8').digest('hex'),
    signedAt: options.now.toISOString(),
  };
}
