/**
 * The two webhook payloads' builders from an outbox row; their schemas are the contract's
 * (`@ecf/contract`, webhook-payloads.ts). A delivery stores the built body as bytes, so every
 * attempt sends exactly the same body. Builders parse their result with the schema: a payload that
 * breaks the contract is a bug that fails the fan-out loudly rather than reaching a receiver.
 */
import type { DocumentStatus, Environment } from '@ecf/db';
import { printingOf, printingStatusOf } from '../documents/printing-status.ts';
import { PARTNER_ENVIRONMENT_OF } from '../partners/partner-rules.ts';
import {
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  ZAnnulmentEventState,
  type ANNULMENT_EVENT_STATES,
  type CERTIFICATION_CASE_STATES,
  type TDirectWebhookPayload,
  type TPartnerWebhookPayload,
} from '@ecf/contract';

export {
  ANNULMENT_EVENT_STATES,
  CERTIFICATION_CASE_STATES,
  INBOUND_EVENT_STATES,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  type TDirectWebhookPayload,
  type TPartnerWebhookPayload,
} from '@ecf/contract';

/** An outbox row, as the fan-out reads it (`persistence/webhooks/webhooks.ts`). */
export type TWebhookEventRecord = {
  id: string;
  /** `webhook_events.sequence` (bigint, as a decimal string). */
  sequence: string;
  type: string;
  tenantId: string | null;
  environment: Environment;
  documentId: string | null;
  episodeId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
  /** `webhook_events.correlation_id`: the request that caused the change (absent: none). */
  correlationId?: string | null;
};

type TDocumentSnapshot = {
  id: string;
  type: number;
  encf: string;
  status: DocumentStatus;
  trackId: string | null;
};
type TDocumentEventData = {
  document: TDocumentSnapshot;
  fromStatus: DocumentStatus | null;
  lastError: { code: string; [key: string]: unknown } | null;
  securityCode: string | null;
  signatureDate: string | null;
  qrUrl: string | null;
  contingencySince: string | null;
};
type TEpisodeEventData = {
  episodeId: string;
  code: string;
  service: string;
  degradedSince: string;
  restoredAt: string | null;
};

/** `data` of an `annulment.state_changed` outbox row, as the `annulments` trigger writes it (migration 0014). */
type TAnnulmentEventData = {
  annulment: { id: string; state: string; fromState: string | null; reconciled: boolean };
  /** The tax authority's answer (`RespuestaAnulacionRango`), null when there was none. */
  taxauth: { codigo?: unknown; nombre?: unknown; mensajes?: unknown } | null;
  /** Counts only (the lists can be long; `GET .../anulaciones-ecf/{annulmentId}` has them). */
  coveredDocuments: { cancelled?: unknown; skipped?: unknown } | null;
  answeredAt: string | null;
};

/** `data` of a receiving outbox row, as the `inbound_documents` trigger writes it (migration 0015). */
type TInboundEventData = {
  inbound: {
    id: string;
    kind: 'ecf' | 'commercial_approval';
    status: string;
    encf: string;
    ecfType: number;
    issuerRnc: string;
    issuerName: string | null;
    buyerRnc: string | null;
    issueDate: string | null;
    totalAmount: string | null;
    receivedAt: string;
  };
  /** `document.commercial_approval_received`: the customer's decision and how it matches our e-CF. */
  approval?: {
    decision: 'accepted' | 'rejected' | null;
    reason: string | null;
    approvedAt: string | null;
    correspondence: Record<string, unknown> | null;
  };
  /** `document.commercial_approval_received`: the issued e-CF it answers (null: `ecf_not_found`). */
  document?: TDocumentSnapshot | null;
  /** `document.commercial_approval_due`. */
  deadline?: string | null;
  daysRemaining?: number | null;
};

/** `data` of the certification outbox rows, as the triggers of migration 0016 write them. */
type TCertificationCaseEventData = {
  case: {
    id: string;
    state: (typeof CERTIFICATION_CASE_STATES)[number];
    step: string;
    fromState: string | null;
    fromStep: string | null;
    version: number;
    testSetId: string | null;
    approvedAt: string | null;
  };
};
type TCertificationRunEventData = {
  run: {
    id: string;
    caseId: string;
    part: 'data' | 'simulation';
    state: 'succeeded';
    source: string;
    startedAt: string | null;
    finishedAt: string | null;
  };
  totals: { documents: number; accepted: number } | null;
};

/** The parts of a certification event both payloads are built from. */
function certificationParts(event: TWebhookEventRecord) {
  if (event.type === 'certification.run_completed') {
    const data = event.data as unknown as TCertificationRunEventData;
    return {
      kind: 'run' as const,
      id: data.run.id,
      state: data.run.state,
      details: {
        runId: data.run.id,
        caseId: data.run.caseId,
        part: data.run.part,
        source: data.run.source,
        startedAt: isoOf(data.run.startedAt),
        finishedAt: isoOf(data.run.finishedAt),
        totals: data.totals,
      },
    };
  }
  const data = event.data as unknown as TCertificationCaseEventData;
  return {
    kind: 'case' as const,
    id: data.case.id,
    state: data.case.state,
    details: {
      caseId: data.case.id,
      state: data.case.state,
      step: data.case.step,
      fromState: data.case.fromState,
      fromStep: data.case.fromStep,
      caseVersion: data.case.version,
      testSetId: data.case.testSetId,
      approvedAt: isoOf(data.case.approvedAt),
    },
  };
}

/** The parts of a receiving event both payloads are built from. */
function inboundParts(event: TWebhookEventRecord) {
  const data = event.data as unknown as TInboundEventData;
  const inbound = data.inbound;
  const received = {
    inboundDocumentId: inbound.id,
    encf: inbound.encf,
    type: `E${String(inbound.ecfType).padStart(2, '0')}`,
    issuerRnc: inbound.issuerRnc,
    issuerName: inbound.issuerName,
    buyerRnc: inbound.buyerRnc,
    issueDate: inbound.issueDate,
    totalAmount: inbound.totalAmount,
    receivedAt: isoOf(inbound.receivedAt),
  };
  const decision = data.approval?.decision === 'rejected' ? 'rejected' : 'accepted';
  const correspondence = data.approval?.correspondence ?? null;
  const approval = {
    inboundDocumentId: inbound.id,
    encf: inbound.encf,
    buyerRnc: inbound.buyerRnc,
    documentId: data.document?.id ?? null,
    decision,
    rejectionReason: decision === 'rejected' ? (data.approval?.reason ?? null) : null,
    approvedAt: data.approval?.approvedAt ?? null,
    correspondence,
    receivedAt: isoOf(inbound.receivedAt),
  };
  const due = {
    inboundDocumentId: inbound.id,
    encf: inbound.encf,
    type: received.type,
    issuerRnc: inbound.issuerRnc,
    issuerName: inbound.issuerName,
    issueDate: inbound.issueDate,
    deadline: data.deadline ?? null,
    daysRemaining: data.daysRemaining ?? null,
  };
  const document =
    data.document === null || data.document === undefined
      ? null
      : {
          id: data.document.id,
          type: `E${data.document.type}`,
          encf: data.document.encf,
          status: data.document.status,
          trackId: data.document.trackId,
        };
  return { received, approval, due, decision, document };
}

function textOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A `mensajes` item as text: a string as is, `{ valor }` by its `valor`. */
function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof message === 'object' && message !== null && 'valor' in message) {
    const valor = message.valor;
    if (typeof valor === 'string') return valor;
    return valor === null || valor === undefined ? '' : JSON.stringify(valor);
  }
  return JSON.stringify(message);
}

function annulmentParts(event: TWebhookEventRecord) {
  const data = event.data as unknown as TAnnulmentEventData;
  const state = ZAnnulmentEventState.parse(data.annulment.state);
  const answer = data.taxauth;
  const mensajes = Array.isArray(answer?.mensajes) ? (answer.mensajes as unknown[]) : [];
  const taxauth =
    answer === null || answer === undefined
      ? null
      : {
          codigo: textOrNull(answer.codigo),
          nombre: textOrNull(answer.nombre),
          mensajes: mensajes.map(messageText),
        };
  const covered = data.coveredDocuments;
  return {
    id: data.annulment.id,
    state,
    details: {
      fromState: data.annulment.fromState,
      reconciled: data.annulment.reconciled,
      taxauth,
      coveredDocuments:
        covered === null || covered === undefined
          ? null
          : { cancelled: Number(covered.cancelled ?? 0), skipped: Number(covered.skipped ?? 0) },
      answeredAt: isoOf(data.answeredAt),
    },
  };
}

const ANNULMENT_SEVERITY: Record<(typeof ANNULMENT_EVENT_STATES)[number], 'info' | 'warning' | 'error'> = {
  accepted: 'info',
  uncertain: 'warning',
  rejected: 'error',
  failed: 'error',
};

const FINAL_STATUSES: ReadonlySet<DocumentStatus> = new Set([
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
]);

/** ISO 8601 in UTC with milliseconds, whatever PostgreSQL's JSON spelling of a timestamp was. */
function isoOf(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function documentSeverity(status: DocumentStatus): 'info' | 'warning' | 'error' {
  if (status === 'rejected' || status === 'transmission_failed') return 'error';
  if (status === 'contingency') return 'warning';
  return 'info';
}

function documentParts(event: TWebhookEventRecord) {
  const data = event.data as unknown as TDocumentEventData;
  const document = data.document;
  const signatureDate = isoOf(data.signatureDate);
  const printingInput = {
    id: document.id,
    environment: event.environment,
    status: document.status,
    trackId: document.trackId,
    securityCode: data.securityCode,
    qrUrl: data.qrUrl,
    signatureDate: signatureDate === null ? null : new Date(signatureDate),
  };
  // Like the status batch: the last send failure matters only while the document can still move.
  const lastError = FINAL_STATUSES.has(document.status) ? null : (data.lastError ?? null);
  return {
    data,
    document: {
      id: document.id,
      type: `E${document.type}`,
      encf: document.encf,
      status: document.status,
      trackId: document.trackId,
    },
    printing: printingOf(printingInput),
    printingStatus: printingStatusOf(document.status, document.trackId),
    lastError,
  };
}

/** The direct payload of `event` for an endpoint of `tenantId`. */
export function buildDirectWebhookPayload(
  event: TWebhookEventRecord,
  tenantId: string,
): TDirectWebhookPayload {
  const base = {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    tenantId,
    environment: event.environment,
    correlationId: event.correlationId ?? null,
  };
  let rest: Pick<TDirectWebhookPayload, 'document' | 'data'>;
  switch (event.type) {
    case 'ecf.queued':
    case 'document.state_changed': {
      const parts = documentParts(event);
      const queued = event.type === 'ecf.queued';
      rest = {
        document: parts.document,
        data: {
          severity: queued ? 'info' : documentSeverity(parts.document.status),
          message: queued
            ? `e-CF ${parts.document.encf} queued for signing.`
            : `e-CF ${parts.document.encf} is now ${parts.document.status}.`,
          payload: queued
            ? {}
            : {
                fromStatus: parts.data.fromStatus,
                status: parts.document.status,
                lastError: parts.lastError,
                printing: parts.printing,
                printingStatus: parts.printingStatus,
              },
        },
      };
      break;
    }
    case 'taxauth.service_degraded':
    case 'taxauth.service_restored': {
      const data = event.data as unknown as TEpisodeEventData;
      const degraded = event.type === 'taxauth.service_degraded';
      rest = {
        document: null,
        data: {
          severity: degraded ? 'warning' : 'info',
          message: degraded
            ? `The tax authority stopped answering in ${event.environment}; documents go to contingency and are retried.`
            : `The tax authority answers again in ${event.environment}.`,
          payload: degraded
            ? { since: isoOf(data.degradedSince), code: data.code, taxauthEnvironment: event.environment }
            : {
                since: isoOf(data.restoredAt),
                degradedSince: isoOf(data.degradedSince),
                code: data.code,
                taxauthEnvironment: event.environment,
              },
        },
      };
      break;
    }
    case 'annulment.state_changed': {
      const parts = annulmentParts(event);
      rest = {
        document: null,
        data: {
          severity: ANNULMENT_SEVERITY[parts.state],
          message:
            parts.state === 'uncertain'
              ? `Annulment ${parts.id} is uncertain: do not resend it, reconcile it.`
              : `Annulment ${parts.id} is now ${parts.state}.`,
          payload: { annulmentId: parts.id, state: parts.state, ...parts.details },
        },
      };
      break;
    }
    case 'taxauth.public.receiver.ecf.received':
    case 'document.received': {
      const { received } = inboundParts(event);
      rest = {
        document: null,
        data: {
          severity: 'info',
          message: `e-CF ${received.encf} received from ${received.issuerRnc}.`,
          payload: received,
        },
      };
      break;
    }
    case 'document.commercial_approval_received': {
      const parts = inboundParts(event);
      rest = {
        document: parts.document,
        data: {
          severity: parts.decision === 'rejected' ? 'warning' : 'info',
          message: `The buyer ${parts.approval.buyerRnc ?? ''} ${parts.decision} e-CF ${parts.approval.encf}.`,
          payload: parts.approval,
        },
      };
      break;
    }
    case 'document.commercial_approval_due': {
      const { due } = inboundParts(event);
      rest = {
        document: null,
        data: {
          severity: 'warning',
          message: `The commercial approval of e-CF ${due.encf} from ${due.issuerRnc} is due on ${due.deadline ?? ''}.`,
          payload: due,
        },
      };
      break;
    }
    case 'production.state_changed': {
      // Written by the `tenants` trigger (migration 0017): the account's eCF authorization.
      const production = (event.data as { production: { state: string; fromState: string | null } })
        .production;
      rest = {
        document: null,
        data: {
          severity: production.state === 'suspended' ? 'warning' : 'info',
          message:
            production.state === 'active'
              ? 'Production (eCF) is active: the account may issue e-CF.'
              : `Production (eCF) is now ${production.state}.`,
          payload: { state: production.state, fromState: production.fromState },
        },
      };
      break;
    }
    case 'certification.state_changed':
    case 'certification.run_completed': {
      const parts = certificationParts(event);
      rest = {
        document: null,
        data: {
          severity: parts.state === 'failed' ? 'error' : 'info',
          message:
            parts.kind === 'run'
              ? `Certification run ${parts.id} (${parts.details.part as string}) succeeded.`
              : `Certification ${parts.id} is ${parts.state} at step ${parts.details.step}.`,
          payload: parts.details,
        },
      };
      break;
    }
    default:
      rest = {
        document: null,
        data: { severity: 'info', message: 'Test event sent from the portal.', payload: {} },
      };
  }
  return ZDirectWebhookPayload.parse({ ...base, ...rest });
}

/**
 * The path of a document's PDF on the Partner API (`pdfUrl` of its payloads and answers; the direct
 * route `/{environment}/documentos-ecf/{id}/pdf` needs an `X-API-KEY` a Partner does not hold).
 * Null in CerteCF, where no PDF is handed to buyers.
 */
export function partnerPdfUrlOf(fiscalAccountId: string, environment: Environment, documentId: string) {
  if (environment === 'CerteCF') return null;
  return `/partner/v1/fiscal-accounts/${fiscalAccountId}/${PARTNER_ENVIRONMENT_OF[environment]}/documents/${documentId}/pdf`;
}

/**
 * The Partner payload of `event` for a fiscal account (`fiscalAccountId`, `externalTenantId` as the
 * Partner registered it): the Partner API's environment names and routes, and the correlation id
 * of the request that caused the change (the outbox row's).
 */
export function buildPartnerWebhookPayload(
  event: TWebhookEventRecord,
  account: { fiscalAccountId: string; externalTenantId: string },
  endpointId?: string,
): TPartnerWebhookPayload {
  const base = {
    schemaVersion: 'partner.webhook.v1' as const,
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    externalTenantId: account.externalTenantId,
    fiscalAccountId: account.fiscalAccountId,
    environment: PARTNER_ENVIRONMENT_OF[event.environment],
    stateVersion: Number(event.sequence),
    correlationId: event.correlationId ?? null,
  };
  switch (event.type) {
    case 'ecf.queued':
    case 'document.state_changed': {
      const parts = documentParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: {
          kind: 'document',
          ...parts.document,
          printing:
            parts.printing === null
              ? null
              : {
                  ...parts.printing,
                  pdfUrl:
                    parts.printing.pdfUrl === null
                      ? null
                      : partnerPdfUrlOf(account.fiscalAccountId, event.environment, parts.document.id),
                },
          printingStatus: parts.printingStatus,
          lastError: parts.lastError,
        },
        data: { fromStatus: parts.data.fromStatus },
      });
    }
    case 'taxauth.service_degraded':
    case 'taxauth.service_restored': {
      const data = event.data as unknown as TEpisodeEventData;
      const degraded = event.type === 'taxauth.service_degraded';
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'taxauth_service', id: data.episodeId, state: degraded ? 'degraded' : 'restored' },
        data: degraded
          ? { since: isoOf(data.degradedSince), code: data.code, taxauthEnvironment: event.environment }
          : {
              since: isoOf(data.restoredAt),
              code: data.code,
              taxauthEnvironment: event.environment,
              degradedSince: isoOf(data.degradedSince),
            },
      });
    }
    case 'annulment.state_changed': {
      const parts = annulmentParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'annulment', id: parts.id, state: parts.state },
        data: parts.details,
      });
    }
    case 'taxauth.public.receiver.ecf.received':
    case 'document.received': {
      const { received } = inboundParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'inbound_document', id: received.inboundDocumentId, state: 'received' },
        data: received,
      });
    }
    case 'document.commercial_approval_received': {
      const parts = inboundParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'inbound_document', id: parts.approval.inboundDocumentId, state: parts.decision },
        data: parts.approval,
      });
    }
    case 'document.commercial_approval_due': {
      const { due } = inboundParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'inbound_document', id: due.inboundDocumentId, state: 'commercial_approval_due' },
        data: due,
      });
    }
    case 'certification.state_changed':
    case 'certification.run_completed': {
      const parts = certificationParts(event);
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource:
          parts.kind === 'run'
            ? { kind: 'certification_run', id: parts.id, state: parts.state }
            : { kind: 'certification_case', id: parts.id, state: parts.state },
        data: parts.details,
      });
    }
    case 'certificate.validated':
    case 'certificate.expiring':
    case 'certificate.expired': {
      // Written by the `tenant_certificates` trigger (migration 0017).
      const certificate = (event.data as { certificate: Record<string, unknown> }).certificate;
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: {
          kind: 'certificate',
          id: String(certificate['id']),
          state: event.type.slice('certificate.'.length),
        },
        data: {
          holderId: certificate['holderId'] ?? null,
          subject: certificate['subject'] ?? null,
          serialNumber: certificate['serialNumber'] ?? null,
          validFrom: isoOf((certificate['validFrom'] as string | null) ?? null),
          validTo: isoOf((certificate['validTo'] as string | null) ?? null),
        },
      });
    }
    case 'production.state_changed': {
      // Written by the `tenants` trigger (migration 0017).
      const production = (event.data as { production: { state: string; fromState: string | null } })
        .production;
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'production', id: account.fiscalAccountId, state: production.state },
        data: { fromState: production.fromState },
      });
    }
    default:
      return ZPartnerWebhookPayload.parse({
        ...base,
        resource: { kind: 'webhook_endpoint', id: endpointId ?? event.id },
        data: {},
      });
  }
}

/** The bytes a delivery stores and sends (UTF-8 JSON). */
export function webhookBodyOf(payload: TDirectWebhookPayload | TPartnerWebhookPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

/** The body of a `webhook.test` event for a direct endpoint. */
export function buildWebhookTestBody(options: {
  eventId: string;
  createdAt: Date;
  tenantId: string;
  environment: Environment;
  /** The test request's. */
  correlationId?: string | null;
}): Buffer {
  return webhookBodyOf(
    buildDirectWebhookPayload(
      {
        id: options.eventId,
        sequence: '0',
        type: 'webhook.test',
        tenantId: options.tenantId,
        environment: options.environment,
        documentId: null,
        episodeId: null,
        data: {},
        createdAt: options.createdAt,
        correlationId: options.correlationId ?? null,
      },
      options.tenantId,
    ),
  );
}
