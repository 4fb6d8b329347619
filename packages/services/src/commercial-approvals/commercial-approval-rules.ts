/**
 * The rules of sending a commercial approval (ACECF; its request's shape is `@ecf/contract`'s): the
 * `approvalDate` checks, what a received e-CF's tax authority validity blocks, the dispatch schedule, what is
 * kept of the issuer's answer, and the view the API and the portal answer (docs/commercial-approvals.md).
 */
import { dominicanDateOf, formatDominicanDateTime, parseTaxauthDate } from '@ecf/fiscal-core';
import type { TCommercialApprovalRow, TInboundEcfForApproval } from '../persistence/index.ts';
import { leafOf, readSignedEcfTree } from '../shared/signed-ecf-tree.ts';

/** Automatic dispatch attempts of one cycle (spec Limits: up to 5 automatic attempts). */
export const DISPATCH_MAX_ATTEMPTS = 5;
/** At most this much of the issuer's answer body is kept (spec Limits: 4 KB). */
export const DISPATCH_KEPT_BODY_BYTES = 4096;
/** An answer longer than this is not read to its end (the dispatch is then `uncertain`). */
export const DISPATCH_MAX_ANSWER_BYTES = 1024 * 1024;
/** `approvalDate` may be at most this far after the Dominican Republic's current time. */
export const APPROVAL_DATE_FUTURE_TOLERANCE_MS = 5 * 60_000;
/** A submission to the tax authority left `pending` this long had no recorded answer: `uncertain`. */
export const TAXAUTH_PENDING_STALE_MS = 5 * 60_000;
/** Signed ACECF and reconciliation evidence are kept 10 years (spec Limits). */
export const RETENTION_YEARS = 10;
/** The outbox job of a dispatch the request attempts itself starts after this many seconds (a safety net). */
export const DISPATCH_SAFETY_NET_SECONDS = 30;

/** Wait after failed attempt `attempt` (1-based): 30 s, 1, 2, 4 minutes. */
export function dispatchRetryWaitSeconds(attempt: number): number {
  return 30 * 2 ** Math.max(0, Math.min(attempt - 1, 3));
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const TAXAUTH = /^(\d{2})-(\d{2})-(\d{4})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DOMINICAN_OFFSET_MINUTES = -4 * 60;

/** The instant `approvalDate` names, or null when it is not a real date and time. */
export function parseApprovalDate(text: string): Date | null {
  const iso = ISO.exec(text.trim());
  const taxauth = iso === null ? TAXAUTH.exec(text.trim()) : null;
  if (iso === null && taxauth === null) return null;
  const [year, month, day, hour, minute, second, fraction, zone] =
    iso !== null
      ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6], iso[7], iso[8]]
      : [
          taxauth?.[3],
          taxauth?.[2],
          taxauth?.[1],
          taxauth?.[4],
          taxauth?.[5],
          taxauth?.[6],
          undefined,
          undefined,
        ];
  const numbers = [year, month, day, hour ?? '0', minute ?? '0', second ?? '0'].map(Number);
  const [y, mo, d, h, mi, s] = numbers as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const calendar = new Date(Date.UTC(y, mo - 1, d));
  if (calendar.getUTCFullYear() !== y || calendar.getUTCMonth() !== mo - 1 || calendar.getUTCDate() !== d)
    return null;
  let offsetMinutes = DOMINICAN_OFFSET_MINUTES;
  if (zone === 'Z') offsetMinutes = 0;
  else if (zone !== undefined) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 14 || zm > 59) return null;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  const milliseconds = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, milliseconds) - offsetMinutes * 60_000);
}

export type TApprovalDateProblem = 'invalid' | 'before_issue_date' | 'in_future';

/** Why `approvalDate` is refused, or its instant. `issueDate` is `YYYY-MM-DD` (the e-CF's `FechaEmision`). */
export function checkApprovalDate(
  text: string,
  input: { issueDate: string | null; now: Date },
): { ok: true; at: Date } | { ok: false; reason: TApprovalDateProblem } {
  const at = parseApprovalDate(text);
  if (at === null) return { ok: false, reason: 'invalid' };
  if (input.issueDate !== null) {
    const day = dominicanDateOf(at.getTime());
    const iso = `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
    if (iso < input.issueDate) return { ok: false, reason: 'before_issue_date' };
  }
  if (at.getTime() > input.now.getTime() + APPROVAL_DATE_FUTURE_TOLERANCE_MS)
    return { ok: false, reason: 'in_future' };
  return { ok: true, at };
}

/** The fields an ACECF repeats from the received e-CF, as its supplier wrote them. */
export type TReceivedEcfFields = {
  rncEmisor: string;
  encf: string;
  /** `dd-MM-yyyy`. */
  fechaEmision: string;
  montoTotal: string;
  rncComprador: string;
  /** `FechaEmision` as `YYYY-MM-DD`. */
  issueDate: string | null;
};

/** RNCEmisor, eNCF, FechaEmision, MontoTotal, RNCComprador of the received bytes (columns as a fallback). */
export function receivedEcfFieldsOf(inbound: TInboundEcfForApproval): TReceivedEcfFields {
  const tree = inbound.xml === null ? undefined : readSignedEcfTree(inbound.xml.replace(/^\uFEFF/, ''));
  const header = tree?.ECF['Encabezado'];
  const fechaEmision =
    leafOf(header, ['Emisor', 'FechaEmision']) ??
    (inbound.issueDate === null
      ? ''
      : `${inbound.issueDate.slice(8, 10)}-${inbound.issueDate.slice(5, 7)}-${inbound.issueDate.slice(0, 4)}`);
  const parsed = parseTaxauthDate(fechaEmision);
  const issueDate =
    parsed === null
      ? inbound.issueDate
      : `${String(parsed.year).padStart(4, '0')}-${String(parsed.month).padStart(2, '0')}-${String(parsed.day).padStart(2, '0')}`;
  return {
    rncEmisor: leafOf(header, ['Emisor', 'RNCEmisor']) ?? inbound.issuerRnc,
    encf: leafOf(header, ['IdDoc', 'eNCF']) ?? inbound.encf,
    fechaEmision,
    montoTotal: leafOf(header, ['Totales', 'MontoTotal']) ?? inbound.totalAmount ?? '',
    rncComprador: leafOf(header, ['Comprador', 'RNCComprador']) ?? inbound.buyerRnc ?? '',
    issueDate,
  };
}

/**
 * What Consulta Estado said of a received e-CF, as `taxauthValidity` stores it: `invalid` when it
 * was reported rejected or not found (`status`/`state`/`result` `rejected` or `not_found`, or an
 * `estado` saying so), `unknown` while it was never asked, `valid` otherwise.
 */
export function validityVerdictOf(validity: unknown): 'valid' | 'invalid' | 'unknown' {
  if (validity === null || validity === undefined || typeof validity !== 'object') return 'unknown';
  const record = validity as Record<string, unknown>;
  const words = ['status', 'state', 'result', 'validity']
    .map((key) => record[key])
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.toLowerCase());
  if (words.some((word) => ['rejected', 'not_found', 'notfound', 'invalid'].includes(word))) return 'invalid';
  const estado = typeof record['estado'] === 'string' ? record['estado'] : '';
  if (/rechazad|no fue encontrad|no encontrad|not found|anulad/i.test(estado)) return 'invalid';
  if (words.length === 0 && estado === '') return 'unknown';
  return 'valid';
}

/** The first `DISPATCH_KEPT_BODY_BYTES` bytes of a body, cut on a character boundary. */
export function keptBodyOf(body: string): {
  body: string;
  responseTruncated: boolean;
  responseBytes: number;
} {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= DISPATCH_KEPT_BODY_BYTES)
    return { body, responseTruncated: false, responseBytes: bytes.length };
  let end = DISPATCH_KEPT_BODY_BYTES;
  // Back off to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return {
    body: bytes.subarray(0, end).toString('utf8'),
    responseTruncated: true,
    responseBytes: bytes.length,
  };
}

/** The 10-year retention date of what is stored at `at`. */
export function retentionDateOf(at: Date): Date {
  const until = new Date(at.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + RETENTION_YEARS);
  return until;
}

/** `FechaHoraAprobacionComercial` of an instant. */
export function approvedAtTextOf(at: Date): string {
  return formatDominicanDateTime(at.getTime());
}

/** What the API and the portal answer of an approval (`CommercialApprovalStatusResponse.commercialApproval`). */
export type TCommercialApprovalView = {
  id: string;
  decision: 'accept' | 'reject';
  approvalDate: string;
  rejectionReason: string | null;
  status: 'signed';
  targetSource: TCommercialApprovalRow['targetSource'];
  targetUrl: string | null;
  createdAt: string;
  supersededAt: string | null;
  taxauth: {
    status: TCommercialApprovalRow['taxauthStatus'];
    codigo: string | null;
    estado: string | null;
    mensajes: string[];
  };
  dispatch: {
    status: TCommercialApprovalRow['dispatchStatus'];
    attempts: number;
    httpStatus: number | null;
    body: string | null;
    responseTruncated: boolean;
    responseBytes: number | null;
    nextAttemptAt: string | null;
    error: { reason: string; message: string } | null;
  };
  reconciliation: {
    outcome: string;
    note: string | null;
    reconciledAt: string;
    evidence: { artifactId: string; sha256: string; contentType: string } | null;
  } | null;
};

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** The view of a stored approval. */
export function commercialApprovalViewOf(row: TCommercialApprovalRow): TCommercialApprovalView {
  const answer = (row.taxauthAnswer ?? {}) as Record<string, unknown>;
  const response = (row.lastResponse ?? {}) as Record<string, unknown>;
  const mensajes = Array.isArray(answer['mensajes'])
    ? answer['mensajes'].map((message) => text(message) ?? JSON.stringify(message))
    : [];
  const reason = text(response['reason']);
  const reconciliation = row.reconciliation as TCommercialApprovalView['reconciliation'];
  // While the outbox waits, a retry's time; a `sending` lease is not a retry time.
  const nextAttemptAt = row.dispatchStatus === 'retry_scheduled' ? row.nextAttemptAt : null;
  return {
    id: row.id,
    decision: row.decision,
    approvalDate: row.approvalDate.toISOString(),
    rejectionReason: row.rejectionReason,
    status: 'signed',
    targetSource: row.targetSource,
    targetUrl: row.targetUrl,
    createdAt: row.createdAt.toISOString(),
    supersededAt: row.supersededAt?.toISOString() ?? null,
    taxauth: {
      status: row.taxauthStatus,
      codigo: text(answer['codigo']),
      estado: text(answer['estado']),
      mensajes,
    },
    dispatch: {
      status: row.dispatchStatus,
      attempts: row.dispatchAttempts,
      httpStatus: typeof response['httpStatus'] === 'number' ? response['httpStatus'] : null,
      body: text(response['body']),
      responseTruncated: response['responseTruncated'] === true,
      responseBytes: typeof response['responseBytes'] === 'number' ? response['responseBytes'] : null,
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
      error: reason === null ? null : { reason, message: text(response['message']) ?? '' },
    },
    reconciliation: reconciliation ?? null,
  };
}
