import { createHash } from 'node:crypto';
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
  claimInboundRefusalSlot,
  findReceivedInboundId,
  findReceivingTenant,
  recordInboundDocument,
  recordInboundRefusal,
  type TInboundInsert,
  type TReceivingTenant,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { metered, type TCpuMeter } from './cpu-budget.ts';
import {
  amountOf,
  approvalDeadlineOf,
  decodeDeliveredXml,
  isoDateOf,
  NEVER_EXCHANGED_TYPES,
  readDeliveredEcf,
  retainUntilOf,
  DEFAULT_REFUSAL_POLICY,
  refusalRetainUntilOf,
  RNC_PATTERN,
  storableText,
  type TRefusalPolicy,
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
  /** The `inbound_documents` row, or null when none was stored (motivo 4, an unverified signature). */
  inboundDocumentId: string | null;
  /**
   * What was kept (docs/receiving.md "What is kept"): `row` (the row and its 10-year artifacts),
   * `compact` (an `inbound_refusals` record: the signature was not verified), `counted` (the
   * sender's compact records of the day were spent: only counted), `nothing` (motivo 4).
   */
  kept: 'row' | 'compact' | 'counted' | 'nothing';
  /** The `inbound_refusals` record when `kept` is `compact`. */
  refusalId: string | null;
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
  /** Receives the CPU milliseconds of the expensive steps (the route charges the sender with them). */
  cpuMeter?: TCpuMeter;
  /** What is kept of a delivery whose signature was not verified (defaults: 100 a day per sender, 90 days). */
  refusals?: TRefusalPolicy;
};

const REASON_OF_CODE: Record<1 | 2 | 3 | 4, TNotReceivedReason> = {
  1: 'specification_error',
  2: 'signature_error',
  3: 'duplicate',
  4: 'buyer_rnc_mismatch',
};

/**
 * `POST /fe/recepcion/api/ecf` (docs/receiving.md): an e-CF a supplier delivers to one of our
 * tenants, answered with an ARECF. In this order, cheapest first (issue 25):
 * 1. unreadable bytes (empty, not UTF-8, DTD/entities, too deep, more elements or attributes than
 *    any e-CF — the pre-scan stops there, no tree is built —, not an `ECF` with RNCEmisor and eNCF)
 *    → 400 `INVALID_REQUEST`, nothing stored;
 * 2. `RNCComprador` not a tenant of ours → ARECF motivo 4, UNSIGNED (we hold no certificate for
 *    that RNC), nothing stored;
 * 3. the tenant declared authentication → a valid bearer token, else 401, nothing stored;
 * 4. the XSD fails → motivo 1 and the signature is never verified; the signature does not verify
 *    → motivo 2 (motivo 1 for a type never exchanged). Both are unverified: a compact record within
 *    the sender's daily bound (the ARECF signed), beyond it only counted (the ARECF unsigned);
 * 5. verified: a type never exchanged (32, 41, 43, 45, 46, 47) → motivo 1; a received copy exists →
 *    motivo 3; both recorded (`not_received`) with the bytes and the signed ARECF (10 years);
 * 6. otherwise Estado 0: the bytes and the signed ARECF stored (10 years) with the row and its
 *    `inbound.check-validity` job, in one transaction. A concurrent delivery of the same document
 *    that loses on the unique index is answered and recorded as motivo 3.
 * The expensive steps are metered into `cpuMeter` (the route's per-sender CPU budget). The tenant
 * without an active certificate: 503 `SERVICE_UNAVAILABLE`, nothing stored.
 */
export async function receiveEcf(options: TReceiveEcfOptions): Promise<TReceiveEcfResult> {
  const now = options.now ?? (() => new Date());
  const meter = options.cpuMeter;
  // Bounded before anything is built: the pre-scan stops at the element, attribute and depth limits.
  const text = metered(meter, () => decodeDeliveredXml(options.xml));
  const ecf = metered(meter, () => readDeliveredEcf(text));

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

  const unverified = { ...options, tenant, ecf, signer: null, text };
  // The XSD (libxml2: milliseconds) before the signature (a DOM of the whole document): a
  // document its schema refuses is never verified, and is kept as an unverified one.
  const schema = metered(meter, () => options.xsd.validateXml(text));
  if (!schema.success)
    return refuseUnverified(
      unverified,
      1,
      `XSD: ${schema.issues
        .slice(0, 3)
        .map((issue) => issue.message)
        .join('; ')}`,
      now(),
    );
  const neverExchanged = NEVER_EXCHANGED_TYPES.has(ecf.type);
  const signature = metered(meter, () => verifyXmlSignature(text));
  if (!signature.valid)
    return refuseUnverified(
      unverified,
      neverExchanged ? 1 : 2,
      neverExchanged
        ? `Type ${ecf.type} is never exchanged between taxpayers.`
        : `${signature.reason}: ${signature.message}`,
      now(),
    );
  const context = { ...unverified, signer: signerOf(signature, ecf.rncEmisor) };
  if (neverExchanged)
    return refuse(context, 1, `Type ${ecf.type} is never exchanged between taxpayers.`, now());
  if (
    (await findReceivedInboundId(options.database, {
      tenantId: tenant.id,
      environment: options.environment,
      kind: 'ecf',
      issuerRnc: ecf.rncEmisor,
      encf: ecf.encf,
    })) !== null
  )
    return refuse(context, 3, 'A copy of this e-CF was already received.', now());

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
    kept: 'row',
    refusalId: null,
  };
}

/**
 * A delivery whose signature was not verified (docs/receiving.md "What is kept"): within the
 * sender's bound of the day, a compact record (SHA-256, size, routing fields, motivo, address, the
 * signed ARECF answered) kept for the policy's days; beyond it, only counted, and the ARECF answered
 * unsigned (no RSA signature per unauthenticated delivery past the bound). Never the bytes, never a
 * 10-year artifact.
 */
async function refuseUnverified(
  context: TContext,
  code: 1 | 2,
  reason: string,
  at: Date,
): Promise<TReceiveEcfResult> {
  const policy = context.refusals ?? DEFAULT_REFUSAL_POLICY;
  const answer = { estado: 'not_received' as const, notReceivedCode: code, inboundDocumentId: null };
  const slot = await claimInboundRefusalSlot(context.database, {
    sourceAddress: context.sourceAddress ?? 'unknown',
    at,
    bound: policy.perSenderPerDay,
  });
  if (!slot)
    return {
      ...answer,
      arecfXml: arecfOf(context.ecf, context.tenant.rnc, code, at),
      signed: false,
      kept: 'counted',
      refusalId: null,
    };
  const arecf = await signedArecf(context, code, at);
  const type = Number.parseInt(context.ecf.type, 10);
  const refusalId = await recordInboundRefusal(context.database, {
    tenantId: context.tenant.id,
    environment: context.environment,
    kind: 'ecf',
    notReceivedCode: code,
    reason: storableText(reason, 1000),
    issuerRnc: context.ecf.rncEmisor,
    encf: context.ecf.encf,
    ecfType: Number.isInteger(type) && type >= 0 && type < 100 ? type : Number(context.ecf.encf.slice(1, 3)),
    sha256: createHash('sha256').update(context.xml).digest('hex'),
    sizeBytes: context.xml.length,
    sourceAddress: context.sourceAddress,
    answer: arecf,
    receivedAt: at,
    retainUntil: refusalRetainUntilOf(at, policy),
  });
  return { ...answer, arecfXml: arecf, signed: true, kept: 'compact', refusalId };
}

type TContext = TReceiveEcfOptions & {
  tenant: TReceivingTenant;
  ecf: TDeliveredEcf;
  signer: TInboundSigner | null;
  text: string;
};

async function refuse(context: TContext, code: 1 | 3, reason: string, at: Date): Promise<TReceiveEcfResult> {
  // A verified document can still be replayed by anyone who holds it: its refusals take a slot of
  // the sender's daily bound too; past it they are only counted, answered unsigned.
  const policy = context.refusals ?? DEFAULT_REFUSAL_POLICY;
  const slot = await claimInboundRefusalSlot(context.database, {
    sourceAddress: context.sourceAddress ?? 'unknown',
    at,
    bound: policy.perSenderPerDay,
  });
  if (!slot)
    return {
      arecfXml: arecfOf(context.ecf, context.tenant.rnc, code, at),
      signed: false,
      estado: 'not_received',
      notReceivedCode: code,
      inboundDocumentId: null,
      kept: 'counted',
      refusalId: null,
    };
  const arecf = await signedArecf(context, code, at);
  // Only verified documents come here (motivo 1 of a type never exchanged, motivo 3): bytes kept.
  const recorded = await recordInboundDocument(context.database, {
    row: rowOf(context, { status: 'not_received', code, reason, receivedAt: at }),
    xml: { kind: 'received_xml', contentType: 'application/xml', content: context.xml },
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
    kept: 'row',
    refusalId: null,
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
  const arecf = arecfOf(context.ecf, context.tenant.rnc, code, at);
  return metered(context.cpuMeter, () => signXml(arecf, resolved.certificate).xml);
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
    kept: 'nothing',
    refusalId: null,
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
