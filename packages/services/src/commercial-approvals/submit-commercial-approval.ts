import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import { buildAcecfXml, signXml, type TSigningCertificate, type TXsdValidators } from '@ecf/fiscal-core';
import {
  commercialApprovalUrlOf,
  authenticationBaseOf,
  isTaxauthError,
  type TReceiver,
  type TTaxauthClient,
} from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import {
  changeCommercialApproval,
  findActiveCommercialApproval,
  findInboundForApproval,
  insertCommercialApproval,
  isUniqueViolation,
  loadCommercialApprovalForDispatch,
  type TCommercialApprovalRow,
  type TInboundEcfForApproval,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import {
  approvedAtTextOf,
  checkApprovalDate,
  commercialApprovalViewOf,
  DISPATCH_SAFETY_NET_SECONDS,
  receivedEcfFieldsOf,
  retentionDateOf,
  TAXAUTH_PENDING_STALE_MS,
  validityVerdictOf,
  type TCommercialApprovalView,
} from './commercial-approval-rules.ts';
import type { TCommercialApprovalRequest } from '@ecf/contract';
import { dispatchCommercialApproval } from './dispatch-commercial-approval.ts';
import { taxauthOutcomeOf } from './taxauth-outcome.ts';

export type TSubmitCommercialApprovalOptions = TCertificateSource & {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  environment: Environment;
  inboundDocumentId: string;
  request: TCommercialApprovalRequest;
  xsd: TXsdValidators;
  /** The tax authority client of an environment (directory, ACECF reception). */
  clientFor: (environment: Environment) => TTaxauthClient;
  /** The process's enqueue: the dispatch job commits with the tax authority's acceptance. */
  enqueue: TEnqueue;
  now?: () => Date;
  /** The request's own first dispatch attempt (tests: a local issuer). */
  dispatch?: { fetch?: typeof fetch; timeoutMs?: number };
};

export type TSubmitCommercialApprovalResult = {
  /** 200 generated without dispatch (CerteCF, no issuer URL) or an idempotent repeat; 202 signed and dispatched. */
  httpStatus: 200 | 202;
  replayed: boolean;
  commercialApproval: TCommercialApprovalView;
};

type TTarget = {
  source: TCommercialApprovalRow['targetSource'];
  url: string | null;
  authenticationUrl: string | null;
};

/**
 * `POST /{environment}/inbound-taxauth/{inboundId}/aprobacion-comercial` (and the portal's accept /
 * reject): the spec's "ACECF POST rules" in order (docs/commercial-approvals.md):
 *
 * 1. the received e-CF of this account and environment (404 `RECEIVED_DOCUMENT_NOT_FOUND`);
 * 2. `approvalDate` (422 `COMMERCIAL_APPROVAL_DATE_INVALID`, `details.reason` invalid |
 *    before_issue_date | in_future; nothing signed or sent);
 * 3. an approval already sent: another decision is 409 `COMMERCIAL_APPROVAL_DECISION_CONFLICT`; the
 *    same decision answers its current state (200), except a tax authority submission without a
 *    known outcome (409 `ACECF_TAXAUTH_SUBMISSION_UNCERTAIN`) and a `dispatch_failed` dispatch,
 *    which starts a new dispatch cycle with the same signed ACECF;
 * 4. `accept` of an e-CF Consulta Estado reported rejected or not found: 409
 *    `RECEIVED_ECF_NOT_VALID_IN_TAXAUTH` (not in CerteCF, not while never asked);
 * 5. the issuer's URL from the directory (TesteCF, eCF) with the account's token (503
 *    `DIRECTORY_ACCESS_TOKEN_MISSING` without a certificate, `DIRECTORY_TAXAUTH_AUTH_FAILED`);
 *    `targetUrl` only when the issuer is not in it, or in CerteCF (422 `ACECF_TARGET_URL_NOT_ALLOWED`);
 * 6. sign (503 `ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE`, `ACECF_SIGNING_FAILED`), store write-once,
 *    send to the tax authority: accepted → the dispatch (outbox job in the same transaction, and a
 *    first attempt in this request: 202, or 502 `ACECF_DISPATCH_NOT_RECEIVED`); rejected → 422
 *    `ACECF_TAXAUTH_REJECTED` (superseded: a corrected one may be sent); no answer → 502
 *    `ACECF_TAXAUTH_SUBMISSION_UNCERTAIN`.
 */
export async function submitCommercialApproval(
  options: TSubmitCommercialApprovalOptions,
): Promise<TSubmitCommercialApprovalResult> {
  const { database, tenant, environment, request } = options;
  const now = options.now ?? (() => new Date());
  const inbound = await findInboundForApproval(database, {
    tenantId: tenant.id,
    environment,
    inboundDocumentId: options.inboundDocumentId,
  });
  if (inbound === null || inbound.kind !== 'ecf')
    throw new AppError(
      'RECEIVED_DOCUMENT_NOT_FOUND',
      'No received e-CF with this id in this account and environment.',
    );
  if (inbound.status !== 'received')
    throw new AppError(
      'RECEIVED_DOCUMENT_NOT_FOUND',
      'This e-CF was not received (its ARECF said Estado 1): nothing to approve.',
      {
        details: { reason: 'not_received' },
      },
    );
  const fields = receivedEcfFieldsOf(inbound);

  const date = checkApprovalDate(request.approvalDate, { issueDate: fields.issueDate, now: now() });
  if (!date.ok)
    throw new AppError('COMMERCIAL_APPROVAL_DATE_INVALID', dateMessage(date.reason), {
      details: { reason: date.reason, path: 'approvalDate', issueDate: fields.issueDate },
    });

  const active = await findActiveCommercialApproval(database, inbound.id);
  if (active !== null) return repeat(options, active, now);

  if (
    request.decision === 'accept' &&
    environment !== 'CerteCF' &&
    validityVerdictOf(inbound.taxauthValidity) === 'invalid'
  )
    throw new AppError(
      'RECEIVED_ECF_NOT_VALID_IN_TAXAUTH',
      'The tax authority reported this e-CF rejected or not found: it cannot be accepted.',
      { details: { taxauthValidity: inbound.taxauthValidity } },
    );

  let certificate: TSigningCertificate | undefined;
  let target: TTarget;
  if (environment === 'CerteCF') {
    target =
      request.targetUrl === undefined
        ? { source: 'not_applicable', url: null, authenticationUrl: null }
        : { source: 'request', url: request.targetUrl, authenticationUrl: null };
  } else {
    const resolved = await resolveDocumentCertificate({
      ...options,
      tenantId: tenant.id,
      step: 'submitCommercialApproval',
    });
    if (!resolved.ok)
      throw new AppError(
        'DIRECTORY_ACCESS_TOKEN_MISSING',
        'No tax authority token to query the directory: the account has no active certificate.',
      );
    certificate = resolved.certificate;
    target = await targetOf(options, inbound, certificate);
  }

  if (certificate === undefined) {
    const resolved = await resolveDocumentCertificate({
      ...options,
      tenantId: tenant.id,
      step: 'submitCommercialApproval',
    });
    if (!resolved.ok)
      throw new AppError('ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE', 'No active certificate to sign the ACECF.');
    certificate = resolved.certificate;
  }

  const built = buildAcecfXml({
    rncEmisor: fields.rncEmisor,
    encf: fields.encf,
    fechaEmision: fields.fechaEmision,
    montoTotal: fields.montoTotal,
    rncComprador: fields.rncComprador || tenant.rnc,
    estado: request.decision === 'accept' ? 'accepted' : 'rejected',
    ...(request.rejectionReason === undefined ? {} : { rejectionReason: request.rejectionReason }),
    approvedAt: approvedAtTextOf(date.at),
  });
  if (!built.success) {
    const onReason = built.issues.filter((issue) => issue.path === 'rejectionReason');
    if (onReason.length > 0)
      throw new AppError(
        'INVALID_REQUEST',
        onReason[0]?.message ?? 'The rejection reason cannot be written.',
        {
          details: {
            issues: onReason.map((issue) => ({ path: issue.path, code: issue.code, message: issue.message })),
          },
        },
      );
    throw new AppError('ACECF_SIGNING_FAILED', 'The ACECF could not be built from the received e-CF.', {
      details: {
        reason: 'build_failed',
        issues: built.issues.map((issue) => ({ path: issue.path, message: issue.message })),
      },
    });
  }
  let signed: string;
  try {
    signed = signXml(built.data, certificate).xml;
  } catch (error) {
    throw new AppError(
      'ACECF_SIGNING_FAILED',
      'The ACECF could not be signed with the account certificate.',
      {
        details: { reason: 'signature_failed' },
        cause: error,
      },
    );
  }
  const valid = options.xsd.validateXml(signed, 'ACECF');
  if (!valid.success)
    throw new AppError('ACECF_SIGNING_FAILED', 'The signed ACECF does not pass ACECF v.1.0.xsd.', {
      details: { reason: 'xsd_invalid', issues: valid.issues.slice(0, 5).map((issue) => issue.message) },
    });

  const at = now();
  let row: TCommercialApprovalRow;
  try {
    row = await insertCommercialApproval(database, {
      tenantId: tenant.id,
      environment,
      inboundDocumentId: inbound.id,
      decision: request.decision,
      approvalDate: date.at,
      rejectionReason: request.rejectionReason ?? null,
      signedXml: signed,
      targetSource: target.source,
      targetUrl: target.url,
      authenticationUrl: target.authenticationUrl,
      at,
      retainUntil: retentionDateOf(at),
    });
  } catch (error) {
    // Another request approved the same e-CF meanwhile: its approval decides.
    if (!isUniqueViolation(error)) throw error;
    const raced = await findActiveCommercialApproval(database, inbound.id);
    if (raced === null) throw error;
    return repeat(options, raced, now);
  }
  return sendToTaxauth(options, row, signed, certificate, now);
}

function dateMessage(reason: 'invalid' | 'before_issue_date' | 'in_future'): string {
  if (reason === 'invalid') return 'approvalDate is not a real date and time.';
  if (reason === 'before_issue_date') return "approvalDate is before the e-CF's FechaEmision.";
  return "approvalDate is later than the Dominican Republic's current time plus 5 minutes.";
}

/** The issuer's commercial approval URL from the directory, or the request's where allowed. */
async function targetOf(
  options: TSubmitCommercialApprovalOptions,
  inbound: TInboundEcfForApproval,
  certificate: TSigningCertificate,
): Promise<TTarget> {
  let receiver: TReceiver | undefined;
  try {
    receiver = await options
      .clientFor(options.environment)
      .forTaxpayer({ cacheKey: options.tenant.id, certificate })
      .getReceiver({ rnc: inbound.issuerRnc });
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.reason === 'not_found') receiver = undefined;
    else if (
      ['auth_failed', 'auth_unavailable', 'unauthorized', 'not_delegated', 'forbidden'].includes(error.reason)
    )
      throw new AppError(
        'DIRECTORY_TAXAUTH_AUTH_FAILED',
        "The tax authority's authentication failed while looking up the directory.",
        {
          details: { reason: error.reason },
        },
      );
    else
      throw new AppError('SERVICE_UNAVAILABLE', "The tax authority's directory did not answer; try again.", {
        details: { reason: 'directory_unavailable', cause: error.reason },
      });
  }
  const directoryUrl =
    receiver?.urlAceptacion === undefined || receiver.urlAceptacion.trim() === ''
      ? undefined
      : commercialApprovalUrlOf(receiver.urlAceptacion);
  if (directoryUrl !== undefined) {
    if (options.request.targetUrl !== undefined)
      throw new AppError(
        'ACECF_TARGET_URL_NOT_ALLOWED',
        "The issuer is in the tax authority's directory: its URL is used, targetUrl is not allowed.",
        { details: { directoryTargetUrl: directoryUrl.toString(), path: 'targetUrl' } },
      );
    const optional = receiver?.urlOpcional?.trim();
    const authentication =
      optional === undefined || optional === '' ? undefined : authenticationBaseOf(optional);
    return {
      source: 'directory',
      url: directoryUrl.toString(),
      authenticationUrl: authentication?.toString() ?? null,
    };
  }
  if (options.request.targetUrl !== undefined)
    return { source: 'request', url: options.request.targetUrl, authenticationUrl: null };
  return { source: 'none', url: null, authenticationUrl: null };
}

async function sendToTaxauth(
  options: TSubmitCommercialApprovalOptions,
  row: TCommercialApprovalRow,
  signed: string,
  certificate: TSigningCertificate,
  now: () => Date,
): Promise<TSubmitCommercialApprovalResult> {
  const { database } = options;
  const taxpayer = options
    .clientFor(options.environment)
    .forTaxpayer({ cacheKey: options.tenant.id, certificate });
  const outcome = await taxauthOutcomeOf(() => taxpayer.sendCommercialApproval({ xml: signed }));
  const at = now();
  const from = { taxauthStatus: 'pending' as const, active: true };
  if (outcome.state === 'not_sent') {
    // Provably never reached the tax authority: the approval is set aside; the same request again starts over.
    await changeCommercialApproval(database, {
      id: row.id,
      from,
      set: {
        taxauth_answer: { ...outcome.answer, notSent: true },
        dispatch_status: 'not_applicable',
        superseded_at: at,
      },
      at,
    });
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The ACECF did not reach the tax authority; nothing was sent. Try again.',
      {
        details: { reason: 'taxauth_unavailable', cause: outcome.reason },
      },
    );
  }
  if (outcome.state === 'uncertain') {
    const changed = await changeCommercialApproval(database, {
      id: row.id,
      from,
      set: { taxauth_status: 'uncertain', taxauth_answer: outcome.answer },
      at,
    });
    throw uncertainError(changed ?? row, 502);
  }
  if (outcome.state === 'rejected') {
    const changed = await changeCommercialApproval(database, {
      id: row.id,
      from,
      set: {
        taxauth_status: 'rejected',
        taxauth_answer: outcome.answer,
        dispatch_status: 'not_applicable',
        superseded_at: at,
      },
      at,
    });
    const view = commercialApprovalViewOf(changed ?? row);
    throw new AppError(
      'ACECF_TAXAUTH_REJECTED',
      'The tax authority rejected the ACECF; correct it and send it again.',
      {
        details: {
          taxauthSubmission: {
            httpStatus: (outcome.answer['httpStatus'] as number | null | undefined) ?? 200,
            taxauthCodigo: outcome.answer['codigo'] ?? null,
            taxauthEstado: outcome.answer['estado'] ?? null,
            taxauthMessages: outcome.answer['mensajes'] ?? [],
            rejectedAt: at.toISOString(),
          },
        },
        body: { commercialApproval: view },
      },
    );
  }
  // Accepted: the dispatch is enqueued with the state change (outbox), then tried once here.
  const dispatchable = row.targetUrl !== null;
  const changed = await changeCommercialApproval(database, {
    id: row.id,
    from,
    set: {
      taxauth_status: 'accepted',
      taxauth_answer: outcome.answer,
      dispatch_status: dispatchable ? 'pending' : 'not_applicable',
    },
    at,
    ...(dispatchable
      ? {
          followUp: {
            enqueue: options.enqueue,
            jobs: [
              {
                name: 'commercial-approval.dispatch',
                payload: { commercialApprovalId: row.id },
                startAfterSeconds: DISPATCH_SAFETY_NET_SECONDS,
              },
            ],
          },
        }
      : {}),
  });
  if (changed === null)
    throw new Error(`submitCommercialApproval: approval ${row.id} moved while it was being sent`);
  if (!dispatchable)
    return { httpStatus: 200, replayed: false, commercialApproval: commercialApprovalViewOf(changed) };
  return dispatchNow(options, row.id, now, false);
}

/** The request's own first attempt of a dispatch cycle: 202 when the issuer received it, else 502. */
async function dispatchNow(
  options: TSubmitCommercialApprovalOptions,
  commercialApprovalId: string,
  now: () => Date,
  replayed: boolean,
): Promise<TSubmitCommercialApprovalResult> {
  await dispatchCommercialApproval({
    database: options.database,
    commercialApprovalId,
    now,
    ...(options.keyring === undefined ? {} : { keyring: options.keyring }),
    ...(options.loadCertificate === undefined ? {} : { loadCertificate: options.loadCertificate }),
    ...(options.dispatch?.fetch === undefined ? {} : { fetch: options.dispatch.fetch }),
    ...(options.dispatch?.timeoutMs === undefined ? {} : { timeoutMs: options.dispatch.timeoutMs }),
  });
  const row = await loadCommercialApprovalForDispatch(options.database, commercialApprovalId);
  if (row === null) throw new Error(`submitCommercialApproval: approval ${commercialApprovalId} vanished`);
  const view = commercialApprovalViewOf(row);
  if (row.dispatchStatus === 'sent' || row.dispatchStatus === 'sending' || row.dispatchStatus === 'pending')
    return { httpStatus: 202, replayed, commercialApproval: view };
  throw new AppError(
    'ACECF_DISPATCH_NOT_RECEIVED',
    `The issuer did not receive the ACECF (dispatch ${row.dispatchStatus}).`,
    {
      details: {
        dispatchStatus: row.dispatchStatus,
        attempts: row.dispatchAttempts,
        nextAttemptAt: view.dispatch.nextAttemptAt,
      },
      body: { commercialApproval: view },
    },
  );
}

function uncertainError(row: TCommercialApprovalRow, status: 409 | 502): AppError {
  return new AppError(
    'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN',
    status === 502
      ? 'The tax authority did not answer the ACECF: it may have been received. Do not resend; reconcile.'
      : 'The ACECF submission to the tax authority has no known outcome yet; reconcile it first.',
    {
      status,
      details: { commercialApprovalId: row.id, taxauthStatus: row.taxauthStatus },
      body: { commercialApproval: commercialApprovalViewOf(row) },
    },
  );
}

/** An approval was already sent for this e-CF: conflict, uncertain, resend or its current state. */
async function repeat(
  options: TSubmitCommercialApprovalOptions,
  active: TCommercialApprovalRow,
  now: () => Date,
): Promise<TSubmitCommercialApprovalResult> {
  let row = active;
  if (row.decision !== options.request.decision)
    throw new AppError(
      'COMMERCIAL_APPROVAL_DECISION_CONFLICT',
      `This e-CF was already answered with ${row.decision}; another decision cannot be sent.`,
      {
        details: { decision: row.decision, commercialApprovalId: row.id },
        body: { commercialApproval: commercialApprovalViewOf(row) },
      },
    );
  if (
    row.taxauthStatus === 'pending' &&
    now().getTime() - row.createdAt.getTime() > TAXAUTH_PENDING_STALE_MS
  ) {
    // The request that sent it died before recording an answer: it may have arrived.
    row =
      (await changeCommercialApproval(options.database, {
        id: row.id,
        from: { taxauthStatus: 'pending', active: true },
        set: {
          taxauth_status: 'uncertain',
          taxauth_answer: { codigo: null, estado: null, mensajes: [], interrupted: true },
        },
        at: now(),
      })) ?? row;
  }
  if (row.taxauthStatus === 'pending' || row.taxauthStatus === 'uncertain') throw uncertainError(row, 409);
  if (
    row.dispatchStatus === 'dispatch_failed' &&
    row.taxauthStatus === 'accepted' &&
    row.targetUrl !== null
  ) {
    // "Repeating the same decision resends": a new cycle of attempts with the same signed ACECF.
    const reset = await changeCommercialApproval(options.database, {
      id: row.id,
      from: { dispatchStatus: 'dispatch_failed', dispatchAttempts: row.dispatchAttempts, active: true },
      set: { dispatch_status: 'pending', dispatch_attempts: 0, next_attempt_at: null },
      at: now(),
      followUp: {
        enqueue: options.enqueue,
        jobs: [
          {
            name: 'commercial-approval.dispatch',
            payload: { commercialApprovalId: row.id },
            startAfterSeconds: DISPATCH_SAFETY_NET_SECONDS,
          },
        ],
      },
    });
    if (reset !== null) return dispatchNow(options, row.id, now, true);
    row = (await findActiveCommercialApproval(options.database, row.inboundDocumentId)) ?? row;
  }
  return { httpStatus: 200, replayed: true, commercialApproval: commercialApprovalViewOf(row) };
}
