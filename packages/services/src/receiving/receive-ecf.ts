import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import {
  buildArecfXml,
  formatDominicanDateTime,
  signXml,
  verifyXmlSignature,
  type TNotReceivedReason,
  type TSignatureVerification,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import {
  findReceivedInboundId,
  findReceivingTenant,
  recordInboundDocument,
  type TInboundInsert,
  type TReceivingTenant,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import {
  amountOf,
  approvalDeadlineOf,
  decodeDeliveredXml,
  isoDateOf,
  NEVER_EXCHANGED_TYPES,
  readDeliveredEcf,
  retainUntilOf,
  RNC_PATTERN,
  storableText,
  type TDeliveredEcf,
  type TInboundSigner,
} from './reception-model.ts';
import { assertReceptionToken } from './reception-token.ts';

/** What the reception route answers: the ARECF (signed unless motivo 4) and what was recorded. */
export type TReceiveEcfResult = {
  /** The ARECF XML answered with HTTP 200 (the one stored, when one was stored). */
  arecfXml: string;
  signed: boolean;
  estado: 'received' | 'not_received';
  notReceivedCode: 1 | 2 | 3 | 4 | null;
  /** The `inbound_documents` row, or null when nothing was stored (motivo 4). */
  inboundDocumentId: string | null;
};

type TReceiveEcfOptions = TCertificateSource & {
  database: TDatabase;
  environment: Environment;
  /** The bytes of the multipart part `xml`, exactly as received. */
  xml: Uint8Array;
  fileName: string | null;
  /** `Authorization` header as sent (checked only when the tenant declared authentication). */
  authorization: string | undefined;
  sourceAddress: string | null;
  xsd: TXsdValidators;
  enqueue: TEnqueue;
  now?: () => Date;
};

const REASON_OF_CODE: Record<1 | 2 | 3 | 4, TNotReceivedReason> = {
  1: 'specification_error',
  2: 'signature_error',
  3: 'duplicate',
  4: 'buyer_rnc_mismatch',
};

/**
 * `POST /fe/recepcion/api/ecf` (docs/receiving.md): an e-CF a supplier delivers to one of our
 * tenants, answered with an ARECF. In this order:
 * 1. unreadable bytes (empty, not UTF-8, DTD/entities, too deep, not an `ECF` with RNCEmisor and
 *    eNCF) → 400 `INVALID_REQUEST`, nothing stored;
 * 2. `RNCComprador` not a tenant of ours → ARECF motivo 4, UNSIGNED (we hold no certificate for
 *    that RNC), nothing stored;
 * 3. the tenant declared authentication → a valid bearer token, else 401, nothing stored;
 * 4. a type never exchanged (32, 41, 43, 45, 46, 47) or an XSD failure → motivo 1; an invalid
 *    signature on the exact bytes → motivo 2 (no copy kept); a received copy exists → motivo 3;
 * 5. otherwise Estado 0: the bytes and the signed ARECF stored (10 years) with the row and its
 *    `inbound.check-validity` job, in one transaction. A concurrent delivery of the same document
 *    that loses on the unique index is answered and recorded as motivo 3.
 * Refusals 1–3 are recorded (`not_received`, with the ARECF) and keep the bytes only when their
 * signature verified. The tenant without an active certificate: 503 `SERVICE_UNAVAILABLE`, nothing stored.
 */
export async function receiveEcf(options: TReceiveEcfOptions): Promise<TReceiveEcfResult> {
  const now = options.now ?? (() => new Date());
  const text = decodeDeliveredXml(options.xml);
  const ecf = readDeliveredEcf(text);

  const buyerRnc = ecf.rncComprador;
  const tenant =
    buyerRnc !== undefined && RNC_PATTERN.test(buyerRnc)
      ? await findReceivingTenant(options.database, { rnc: buyerRnc })
      : null;
  if (tenant === null) return answerUnknownBuyer(ecf, now());

  if (tenant.receptionAuthentication)
    await assertReceptionToken({
      database: options.database,
      environment: options.environment,
      authorization: options.authorization,
      now: now(),
    });

  const signature = verifyXmlSignature(text);
  const signer = signature.valid ? signerOf(signature, ecf.rncEmisor) : null;

  let code: 1 | 2 | 3 | null = null;
  let reason: string | null = null;
  if (NEVER_EXCHANGED_TYPES.has(ecf.type)) {
    code = 1;
    reason = `Type ${ecf.type} is never exchanged between taxpayers.`;
  } else {
    const schema = options.xsd.validateXml(text);
    if (!schema.success) {
      code = 1;
      reason = `XSD: ${schema.issues
        .slice(0, 3)
        .map((issue) => issue.message)
        .join('; ')}`.slice(0, 1000);
    } else if (!signature.valid) {
      code = 2;
      reason = `${signature.reason}: ${signature.message}`.slice(0, 1000);
    } else if (
      (await findReceivedInboundId(options.database, {
        tenantId: tenant.id,
        environment: options.environment,
        kind: 'ecf',
        issuerRnc: ecf.rncEmisor,
        encf: ecf.encf,
      })) !== null
    ) {
      code = 3;
      reason = 'A copy of this e-CF was already received.';
    }
  }

  const context = { ...options, tenant, ecf, signer, text };
  if (code !== null) return refuse(context, code, reason ?? '', now());
  const receivedAt = now();
  const arecf = await signedArecf(context, null, receivedAt);
  const recorded = await recordInboundDocument(options.database, {
    row: rowOf(context, { status: 'received', code: null, reason: null, receivedAt }),
    xml: { kind: 'received_xml', contentType: 'application/xml', content: options.xml },
    acknowledgement: { kind: 'receiver_acknowledgement', contentType: 'application/xml', content: arecf },
    retainUntil: retainUntilOf(receivedAt),
    followUp: {
      enqueue: options.enqueue,
      jobs: (inboundDocumentId) => [
        { name: 'inbound.check-validity', payload: { inboundDocumentId } },
        // In CerteCF only the tax authority sends (its reception tests): the certification sees it now.
        ...(options.environment === 'CerteCF'
          ? [{ name: 'certification.sync' as const, payload: { tenantId: tenant.id } }]
          : []),
      ],
    },
  });
  if (recorded.duplicate)
    return refuse(context, 3, 'A copy of this e-CF was received by a concurrent delivery.', now());
  return {
    arecfXml: arecf,
    signed: true,
    estado: 'received',
    notReceivedCode: null,
    inboundDocumentId: recorded.id,
  };
}

type TContext = TReceiveEcfOptions & {
  tenant: TReceivingTenant;
  ecf: TDeliveredEcf;
  signer: TInboundSigner | null;
  text: string;
};

async function refuse(
  context: TContext,
  code: 1 | 2 | 3,
  reason: string,
  at: Date,
): Promise<TReceiveEcfResult> {
  const arecf = await signedArecf(context, code, at);
  // Motivo 2 keeps no copy; 1 and 3 keep the bytes only when their signature verified.
  const keepsBytes = code !== 2 && context.signer !== null;
  const recorded = await recordInboundDocument(context.database, {
    row: rowOf(context, { status: 'not_received', code, reason, receivedAt: at }),
    xml: keepsBytes ? { kind: 'received_xml', contentType: 'application/xml', content: context.xml } : null,
    acknowledgement: { kind: 'receiver_acknowledgement', contentType: 'application/xml', content: arecf },
    retainUntil: retainUntilOf(at),
  });
  if (recorded.duplicate) throw new TypeError('receiveEcf: a not_received row cannot be a duplicate');
  return {
    arecfXml: arecf,
    signed: true,
    estado: 'not_received',
    notReceivedCode: code,
    inboundDocumentId: recorded.id,
  };
}

function arecfOf(ecf: TDeliveredEcf, buyerRnc: string, code: 1 | 2 | 3 | 4 | null, at: Date): string {
  const built = buildArecfXml({
    rncEmisor: ecf.rncEmisor,
    rncComprador: buyerRnc,
    encf: ecf.encf,
    estado: code === null ? 'received' : 'not_received',
    ...(code === null ? {} : { notReceivedReason: REASON_OF_CODE[code] }),
    acknowledgedAt: formatDominicanDateTime(at.getTime()),
  });
  if (!built.success)
    throw new TypeError(
      `receiveEcf: ARECF not built: ${built.issues.map((issue) => issue.message).join('; ')}`,
    );
  return built.data;
}

async function signedArecf(context: TContext, code: 1 | 2 | 3 | null, at: Date): Promise<string> {
  const resolved = await resolveDocumentCertificate({
    ...context,
    tenantId: context.tenant.id,
    step: 'receiveEcf',
  });
  if (!resolved.ok)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The receiver cannot sign its acknowledgement now; deliver the e-CF again later.',
      { details: { reason: 'receiver_certificate_unavailable' }, headers: { 'retry-after': '3600' } },
    );
  return signXml(arecfOf(context.ecf, context.tenant.rnc, code, at), resolved.certificate).xml;
}

/**
 * Motivo 4: the buyer is not a tenant of ours. We hold no certificate for that RNC, so the ARECF
 * is not signed (and therefore not XSD-valid: every published schema requires the signature).
 * An e-CF without a buyer RNC is acknowledged the same way only when it names one; without, 400.
 */
function answerUnknownBuyer(ecf: TDeliveredEcf, at: Date): TReceiveEcfResult {
  const buyer = ecf.rncComprador;
  if (buyer === undefined || !RNC_PATTERN.test(buyer))
    throw new AppError(
      'INVALID_REQUEST',
      'The e-CF names no buyer RNC (RNCComprador) this service receives for.',
      {
        details: { reason: 'buyer_rnc_unreadable', field: 'xml' },
      },
    );
  return {
    arecfXml: arecfOf(ecf, buyer, 4, at),
    signed: false,
    estado: 'not_received',
    notReceivedCode: 4,
    inboundDocumentId: null,
  };
}

function signerOf(
  signature: Extract<TSignatureVerification, { valid: true }>,
  issuerRnc: string,
): TInboundSigner {
  const holderId = signature.certificate.holderId ?? null;
  return {
    holderId,
    subject: signature.certificate.subject,
    issuer: signature.certificate.issuer,
    serialNumber: signature.certificate.certificateSerialNumber,
    matchesIssuer: holderId === issuerRnc,
  };
}

function rowOf(
  context: TContext,
  outcome: {
    status: 'received' | 'not_received';
    code: 1 | 2 | 3 | null;
    reason: string | null;
    receivedAt: Date;
  },
): TInboundInsert {
  const { ecf } = context;
  const issueDate = isoDateOf(ecf.fechaEmision);
  const type = Number.parseInt(ecf.type, 10);
  return {
    tenantId: context.tenant.id,
    environment: context.environment,
    kind: 'ecf',
    status: outcome.status,
    notReceivedCode: outcome.code,
    notReceivedReason: storableText(outcome.reason, 1000),
    issuerRnc: ecf.rncEmisor,
    issuerName: storableText(ecf.razonSocialEmisor, 250),
    buyerRnc: context.tenant.rnc,
    encf: ecf.encf,
    ecfType: Number.isInteger(type) && type >= 0 && type < 100 ? type : Number(ecf.encf.slice(1, 3)),
    issueDate,
    totalAmount: amountOf(ecf.montoTotal),
    decision: null,
    decisionReason: null,
    decidedAtText: null,
    documentId: null,
    correspondence: null,
    fileName: storableText(context.fileName, 255),
    signer: context.signer,
    sourceAddress: context.sourceAddress,
    approvalDeadline: outcome.status === 'received' ? approvalDeadlineOf(issueDate) : null,
    receivedAt: outcome.receivedAt,
  };
}
