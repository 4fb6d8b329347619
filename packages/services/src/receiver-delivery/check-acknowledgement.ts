/**
 * Checks a receiver's acknowledgement (ARECF, FACTS §2 and §4.5) of one of our e-CF: the same
 * checks for the answer of a delivery and for the evidence of a reconciliation.
 *
 * An ARECF counts only when all of these hold: its enveloped signature verifies with the
 * certificate it embeds (the tax authority's recipe); it is valid against `ARECF v1.0.xsd`; its
 * `RNCEmisor`, `RNCComprador` and `eNCF` are those of the document; and its signer can be the
 * buyer. The signer rule: a certificate whose holder id is a 9-digit RNC must be the buyer's RNC
 * (a company certificate of anyone else, the issuer included, is refused); an 11-digit holder id is
 * a person's cédula, which is how signing certificates normally look (FACTS §6.12): the person is
 * delegated by the buyer in the tax authority's portal, a fact nobody can query, so it is accepted
 * and recorded (`signer`). The certificate must be valid at the time of the check.
 */
import { createHash } from 'node:crypto';
import { verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';

/** The parties and eNCF an acknowledgement must carry. */
export type TExpectedAcknowledgement = { rncEmisor: string; rncComprador: string; encf: string };

/** Why an acknowledgement is refused. */
export type TAcknowledgementProblem =
  | 'not_xml'
  | 'signature_invalid'
  | 'xsd_invalid'
  | 'issuer_mismatch'
  | 'buyer_mismatch'
  | 'encf_mismatch'
  | 'signer_unidentified'
  | 'signer_is_issuer'
  | 'signer_not_buyer'
  | 'signer_certificate_not_valid_now';

/** A verified acknowledgement. `received` is `Estado` 0; otherwise `CodigoMotivoNoRecibido` (1 to 4) is kept. */
export type TVerifiedAcknowledgement = {
  received: boolean;
  estado: '0' | '1';
  notReceivedReason: string | null;
  rncEmisor: string;
  rncComprador: string;
  encf: string;
  acknowledgedAt: string;
  signer: { holderId: string; subject: string; certificateSerialNumber: string; validTo: string };
  sha256: string;
};

export type TAcknowledgementCheck =
  | { success: true; data: TVerifiedAcknowledgement }
  | { success: false; reason: TAcknowledgementProblem; message: string };

/** Longest acknowledgement read or accepted (an ARECF with its signature is about 3 KB). */
export const ACKNOWLEDGEMENT_MAX_BYTES = 256 * 1024;

const refuse = (reason: TAcknowledgementProblem, message: string): TAcknowledgementCheck => ({
  success: false,
  reason,
  message,
});

/** Checks `xml` as the ARECF of `expected`, signed by someone who can be its buyer, at `now`. */
export function checkAcknowledgement(
  xml: string,
  expected: TExpectedAcknowledgement,
  options: { xsdValidators: TXsdValidators; now: Date },
): TAcknowledgementCheck {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (!/^\s*(<\?xml[^>]*\?>\s*)?<([A-Za-z_][\w.-]*:)?ARECF[\s>]/.test(text))
    return refuse('not_xml', 'The answer is not an ARECF document.');
  if (Buffer.byteLength(text, 'utf8') > ACKNOWLEDGEMENT_MAX_BYTES)
    return refuse('not_xml', `The ARECF exceeds ${ACKNOWLEDGEMENT_MAX_BYTES} bytes.`);

  const signature = verifyXmlSignature(text);
  if (!signature.valid) return refuse('signature_invalid', `${signature.reason}: ${signature.message}`);
  const schema = options.xsdValidators.validateXml(text, 'ARECF');
  if (!schema.success)
    return refuse(
      'xsd_invalid',
      schema.issues
        .map((issue) => issue.message)
        .join('; ')
        .slice(0, 500),
    );

  const fields = readDetail(text);
  if (fields.RNCEmisor !== expected.rncEmisor)
    return refuse(
      'issuer_mismatch',
      `RNCEmisor ${fields.RNCEmisor ?? '(none)'} is not the issuer ${expected.rncEmisor}.`,
    );
  if (fields.RNCComprador !== expected.rncComprador)
    return refuse(
      'buyer_mismatch',
      `RNCComprador ${fields.RNCComprador ?? '(none)'} is not the buyer ${expected.rncComprador}.`,
    );
  if (fields.eNCF?.toUpperCase() !== expected.encf.toUpperCase())
    return refuse('encf_mismatch', `eNCF ${fields.eNCF ?? '(none)'} is not ${expected.encf}.`);

  const certificate = signature.certificate;
  const holderId = certificate.holderId?.replace(/\D/g, '') ?? '';
  if (holderId === '')
    return refuse(
      'signer_unidentified',
      'The signing certificate carries no holder id (subject serialNumber).',
    );
  if (holderId !== expected.rncComprador) {
    if (holderId === expected.rncEmisor)
      return refuse('signer_is_issuer', "The ARECF is signed with the issuer's own certificate.");
    if (holderId.length !== 11)
      return refuse(
        'signer_not_buyer',
        `The ARECF is signed by the holder ${holderId}, not by the buyer ${expected.rncComprador}.`,
      );
  }
  const nowMs = options.now.getTime();
  if (certificate.validFrom.getTime() > nowMs || certificate.validTo.getTime() < nowMs) {
    return refuse(
      'signer_certificate_not_valid_now',
      `The signing certificate is valid from ${certificate.validFrom.toISOString()} to ${certificate.validTo.toISOString()}.`,
    );
  }

  const estado = fields.Estado === '0' ? '0' : '1';
  return {
    success: true,
    data: {
      received: estado === '0',
      estado,
      notReceivedReason: estado === '1' ? (fields.CodigoMotivoNoRecibido ?? null) : null,
      rncEmisor: expected.rncEmisor,
      rncComprador: expected.rncComprador,
      encf: fields.eNCF ?? expected.encf,
      acknowledgedAt: fields.FechaHoraAcuseRecibo ?? '',
      signer: {
        holderId,
        subject: [
          certificate.subject.commonName,
          certificate.subject.serialNumber,
          certificate.subject.organization,
        ]
          .filter((part) => part !== undefined)
          .join(', '),
        certificateSerialNumber: certificate.certificateSerialNumber,
        validTo: certificate.validTo.toISOString(),
      },
      sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    },
  };
}

const DETAIL_FIELDS = [
  'RNCEmisor',
  'RNCComprador',
  'eNCF',
  'Estado',
  'CodigoMotivoNoRecibido',
  'FechaHoraAcuseRecibo',
] as const;

/**
 * The leaves of `DetalleAcusedeRecibo`. Only called on a document the XSD accepted, so the
 * structure is known: each leaf occurs at most once, unprefixed, as text.
 */
function readDetail(xml: string): Partial<Record<(typeof DETAIL_FIELDS)[number], string>> {
  const withoutComments = xml.replace(/<!--[\s\S]*?-->/g, '');
  const detail =
    /<DetalleAcusedeRecibo(?:\s[^>]*)?>([\s\S]*?)<\/DetalleAcusedeRecibo>/.exec(withoutComments)?.[1] ?? '';
  const fields: Partial<Record<(typeof DETAIL_FIELDS)[number], string>> = {};
  for (const name of DETAIL_FIELDS) {
    const match = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(detail);
    if (match?.[1] !== undefined) fields[name] = unescapeText(match[1].trim());
  }
  return fields;
}

function unescapeText(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_whole, entity: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[entity] ?? '',
  );
}
