import { createHash } from 'node:crypto';
import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import { verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import {
  claimInboundRefusalSlot,
  findIssuedDocumentForApproval,
  findReceivedInboundId,
  findReceivingTenant,
  recordInboundDocument,
  recordInboundRefusal,
  type TInboundInsert,
  type TIssuedDocumentForApproval,
  type TReceivingTenant,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { metered, type TCpuMeter } from './cpu-budget.ts';
import {
  amountOf,
  decodeDeliveredXml,
  DEFAULT_REFUSAL_POLICY,
  refusalRetainUntilOf,
  isoDateOf,
  readDeliveredAcecf,
  retainUntilOf,
  RNC_PATTERN,
  storableText,
  type TDeliveredAcecf,
  type TInboundSigner,
  type TRefusalPolicy,
} from './reception-model.ts';
import { assertReceptionToken } from './reception-token.ts';

/** How a received ACECF compares with the e-CF this tenant issued (`inbound_documents.correspondence`). */
export type TApprovalCorrespondence = {
  result: 'matched' | 'mismatch' | 'ecf_not_found';
  mismatches: Array<{
    field: 'RNCComprador' | 'FechaEmision' | 'MontoTotal';
    received: string | null;
    issued: string | null;
  }>;
};

/** What the approval route answers: 200 received or duplicate, 400 rejected (recorded all three). */
export type TReceiveCommercialApprovalResult = {
  httpStatus: 200 | 400;
  status: 'received' | 'duplicate' | 'rejected';
  /** The row; null for a refusal whose signature was not verified (a compact record, or only counted). */
  inboundDocumentId: string | null;
  /** The `inbound_refusals` record of such a refusal, when one was kept. */
  refusalId: string | null;
  /** Why a rejected ACECF was refused (the signature or XSD problem). */
  reason: string | null;
  correspondence: TApprovalCorrespondence | null;
};

type TOptions = {
  database: TDatabase;
  environment: Environment;
  xml: Uint8Array;
  fileName: string | null;
  authorization: string | undefined;
  sourceAddress: string | null;
  xsd: TXsdValidators;
  now?: () => Date;
  /** Enqueues the certification sync with an ACECF received in CerteCF (the tax authority's reception test). */
  enqueue?: TEnqueue;
  /** Receives the CPU milliseconds of the expensive steps (the route charges the sender with them). */
  cpuMeter?: TCpuMeter;
  /** What is kept of a delivery whose signature was not verified (defaults: 100 a day per sender, 90 days). */
  refusals?: TRefusalPolicy;
};

/**
 * `POST /fe/aprobacioncomercial/api/ecf` (docs/receiving.md): an ACECF a customer sends on an e-CF
 * one of our tenants issued. Unreadable bytes → 400 `INVALID_REQUEST`, nothing stored; `RNCEmisor`
 * selects the tenant (not ours: 400 `issuer_not_served`, nothing stored); a tenant that declared
 * authentication needs the bearer token (401). Then:
 * - XSD invalid (checked first: the signature is then never verified) or signature (on the exact
 *   bytes) invalid → HTTP 400 `rejected`, kept as a compact record within the sender's daily bound
 *   (`inbound_refusals`; beyond it only counted), never as a row, never the bytes;
 * - a received ACECF of the same e-CF exists (the unique index decides, races included) →
 *   `duplicate`, HTTP 200 (the customer's delivery succeeded before: answering 400 would make its
 *   outbox retry forever), bytes kept;
 * - otherwise `received`, HTTP 200, bytes kept 10 years, `decision` accepted (Estado 1) or rejected
 *   (Estado 2) with its reason and `FechaHoraAprobacionComercial`, linked to the issued document of
 *   that eNCF (or null) with the `correspondence` of RNCComprador, FechaEmision and MontoTotal.
 */
export async function receiveCommercialApproval(
  options: TOptions,
): Promise<TReceiveCommercialApprovalResult> {
  const now = options.now ?? (() => new Date());
  const meter = options.cpuMeter;
  const text = metered(meter, () => decodeDeliveredXml(options.xml));
  const acecf = metered(meter, () => readDeliveredAcecf(text));
  const tenant = await findReceivingTenant(options.database, { rnc: acecf.rncEmisor });
  if (tenant === null)
    throw new AppError('INVALID_REQUEST', 'RNCEmisor is not an issuer this service receives approvals for.', {
      details: { reason: 'issuer_not_served', field: 'xml' },
    });
  if (tenant.receptionAuthentication)
    await assertReceptionToken({
      database: options.database,
      environment: options.environment,
      authorization: options.authorization,
      now: now(),
    });

  // The XSD (an ACECF has at most 11 elements) before the signature, which is never verified for
  // a document its schema refuses: both refusals are kept as unverified ones (a compact record).
  const schema = metered(meter, () => options.xsd.validateXml(text, 'ACECF'));
  if (!schema.success)
    return refuseUnverified(
      { ...options, tenant, acecf },
      `XSD: ${schema.issues
        .slice(0, 3)
        .map((issue) => issue.message)
        .join('; ')}`,
      now(),
    );
  const signature = metered(meter, () => verifyXmlSignature(text));
  if (!signature.valid)
    return refuseUnverified(
      { ...options, tenant, acecf },
      `${signature.reason}: ${signature.message}`,
      now(),
    );
  const signer: TInboundSigner | null = signature.valid
    ? {
        holderId: signature.certificate.holderId ?? null,
        subject: signature.certificate.subject,
        issuer: signature.certificate.issuer,
        serialNumber: signature.certificate.certificateSerialNumber,
        matchesIssuer: signature.certificate.holderId === acecf.rncComprador,
      }
    : null;
  const context = { ...options, tenant, acecf, signer };

  const issued = await findIssuedDocumentForApproval(options.database, {
    tenantId: tenant.id,
    environment: options.environment,
    encf: acecf.encf,
  });
  const correspondence = correspondenceOf(acecf, issued);
  const linked = { correspondence, documentId: issued?.id ?? null, reason: null };
  const earlier = await findReceivedInboundId(options.database, {
    tenantId: tenant.id,
    environment: options.environment,
    kind: 'commercial_approval',
    issuerRnc: acecf.rncEmisor,
    encf: acecf.encf,
  });
  if (earlier !== null) return record(context, { ...linked, status: 'duplicate' }, now());
  return record(context, { ...linked, status: 'received' }, now());
}

/**
 * An ACECF whose signature was not verified (broken, or its XSD failed first): 400 as before, and
 * kept as a compact record within the sender's bound of the day (only counted beyond), never as a
 * row with its bytes (docs/receiving.md "What is kept").
 */
async function refuseUnverified(
  context: TOptions & { tenant: TReceivingTenant; acecf: TDeliveredAcecf },
  reason: string,
  at: Date,
): Promise<TReceiveCommercialApprovalResult> {
  const policy = context.refusals ?? DEFAULT_REFUSAL_POLICY;
  const slot = await claimInboundRefusalSlot(context.database, {
    sourceAddress: context.sourceAddress ?? 'unknown',
    at,
    bound: policy.perSenderPerDay,
  });
  const refusalId = slot
    ? await recordInboundRefusal(context.database, {
        tenantId: context.tenant.id,
        environment: context.environment,
        kind: 'commercial_approval',
        notReceivedCode: null,
        reason: storableText(reason, 1000),
        issuerRnc: context.acecf.rncEmisor,
        encf: context.acecf.encf,
        ecfType: Number(context.acecf.encf.slice(1, 3)),
        sha256: createHash('sha256').update(context.xml).digest('hex'),
        sizeBytes: context.xml.length,
        sourceAddress: context.sourceAddress,
        answer: null,
        receivedAt: at,
        retainUntil: refusalRetainUntilOf(at, policy),
      })
    : null;
  return {
    httpStatus: 400,
    status: 'rejected',
    inboundDocumentId: null,
    refusalId,
    reason,
    correspondence: null,
  };
}

type TContext = TOptions & {
  tenant: TReceivingTenant;
  acecf: TDeliveredAcecf;
  signer: TInboundSigner | null;
};

async function record(
  context: TContext,
  outcome: {
    status: 'received' | 'duplicate' | 'rejected';
    reason: string | null;
    correspondence: TApprovalCorrespondence | null;
    documentId: string | null;
  },
  at: Date,
): Promise<TReceiveCommercialApprovalResult> {
  const { acecf } = context;
  const decided = outcome.status !== 'rejected';
  const row: TInboundInsert = {
    tenantId: context.tenant.id,
    environment: context.environment,
    kind: 'commercial_approval',
    status: outcome.status,
    notReceivedCode: null,
    notReceivedReason: storableText(outcome.reason, 1000),
    issuerRnc: acecf.rncEmisor,
    issuerName: null,
    buyerRnc:
      acecf.rncComprador !== undefined && RNC_PATTERN.test(acecf.rncComprador) ? acecf.rncComprador : null,
    encf: acecf.encf,
    ecfType: Number(acecf.encf.slice(1, 3)),
    issueDate: isoDateOf(acecf.fechaEmision),
    totalAmount: amountOf(acecf.montoTotal),
    decision: decided ? (acecf.estado === '1' ? 'accepted' : 'rejected') : null,
    decisionReason: decided ? storableText(acecf.detalleMotivoRechazo, 250) : null,
    decidedAtText: decided ? storableText(acecf.fechaHoraAprobacionComercial, 19) : null,
    documentId: outcome.documentId,
    correspondence: outcome.correspondence,
    fileName: storableText(context.fileName, 255),
    signer: context.signer,
    sourceAddress: context.sourceAddress,
    approvalDeadline: null,
    receivedAt: at,
  };
  const recorded = await recordInboundDocument(context.database, {
    row,
    xml:
      context.signer === null
        ? null
        : { kind: 'received_xml', contentType: 'application/xml', content: context.xml },
    acknowledgement: null,
    retainUntil: retainUntilOf(at),
    ...(context.environment === 'CerteCF' && outcome.status === 'received' && context.enqueue !== undefined
      ? {
          followUp: {
            enqueue: context.enqueue,
            jobs: () => [{ name: 'certification.sync' as const, payload: { tenantId: context.tenant.id } }],
          },
        }
      : {}),
  });
  if (recorded.duplicate) {
    // A concurrent delivery of the same ACECF was received first: this one is the duplicate.
    return record(context, { ...outcome, status: 'duplicate' }, at);
  }
  return {
    httpStatus: outcome.status === 'rejected' ? 400 : 200,
    status: outcome.status,
    inboundDocumentId: recorded.id,
    refusalId: null,
    reason: outcome.reason,
    correspondence: outcome.correspondence,
  };
}

/** Cents of a decimal text, or null. */
function centsOf(text: string | null | undefined): bigint | null {
  const match = text == null ? null : /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (match === null) return null;
  const cents = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** RNCComprador, FechaEmision and MontoTotal of the ACECF against the issued e-CF. */
export function correspondenceOf(
  acecf: Pick<TDeliveredAcecf, 'rncComprador' | 'fechaEmision' | 'montoTotal'>,
  issued: TIssuedDocumentForApproval | null,
): TApprovalCorrespondence {
  if (issued === null) return { result: 'ecf_not_found', mismatches: [] };
  const mismatches: TApprovalCorrespondence['mismatches'] = [];
  if ((acecf.rncComprador ?? null) !== issued.buyerRnc)
    mismatches.push({ field: 'RNCComprador', received: acecf.rncComprador ?? null, issued: issued.buyerRnc });
  const receivedDate = isoDateOf(acecf.fechaEmision);
  if (receivedDate !== issued.issueDate) {
    const [year, month, day] = issued.issueDate.split('-');
    mismatches.push({
      field: 'FechaEmision',
      received: acecf.fechaEmision ?? null,
      issued: `${day}-${month}-${year}`,
    });
  }
  const receivedCents = centsOf(acecf.montoTotal);
  if (receivedCents === null || receivedCents !== centsOf(issued.totalAmount))
    mismatches.push({ field: 'MontoTotal', received: acecf.montoTotal ?? null, issued: issued.totalAmount });
  return { result: mismatches.length === 0 ? 'matched' : 'mismatch', mismatches };
}
