/**
 * What the annulment use-cases share: the request and its canonical form (its fingerprint decides
 * replay or `ANECF_IDEMPOTENCY_CONFLICT`), the ANECF built and checked against its XSD, the five
 * reasons a document blocks a range, and the view every answer carries.
 */
import { createHash } from 'node:crypto';
import type { AnnulmentState, Environment } from '@ecf/db';
import { buildAnecfXml, formatDominicanDateTime, type TXsdValidators } from '@ecf/fiscal-core';
import type {
  TAnnulmentRow,
  TCoveredDocumentRow,
  TCoveredDocuments,
  TReservedRange,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { ANNULMENT_CONFLICT_REASONS, type TAnnulmentConflictReason } from '@ecf/contract';

/** `AnnulmentRequest`: ranges per type (`from`/`to` eNCF, both included), an optional reason of ours. */
export type TAnnulmentRequest = {
  ranges: ReadonlyArray<{ type: string; from: string; to: string }>;
  reason?: string | null | undefined;
};

/** The five reasons of a conflict or a skipped document: the contract's. */
export { ANNULMENT_CONFLICT_REASONS, type TAnnulmentConflictReason };

export type TAnnulmentConflict = {
  encf: string;
  documentId: string;
  status: string;
  reason: TAnnulmentConflictReason;
};

/** How long a claimed send without outcome counts as in progress rather than uncertain (the transmission's default). */
export const SUBMISSION_IN_FLIGHT_MS = 120_000;

const LEFT_TOWARD_TAXAUTH = new Set([
  'sent',
  'accepted',
  'accepted_conditional',
  'rejected',
  'transmission_failed',
]);

/**
 * Why a document blocks the annulment of its eNCF, or null when it never left toward the tax
 * authority or the buyer (it may be cancelled). A cancelled document blocks nothing either.
 */
export function conflictReasonOf(document: TCoveredDocumentRow, now: Date): TAnnulmentConflictReason | null {
  if (document.status === 'cancelled') return null;
  if (document.delivered) return 'document_already_delivered_to_receiver';
  if (LEFT_TOWARD_TAXAUTH.has(document.status)) return 'document_already_submitted_or_taxauth_validated';
  if (document.status === 'contingency') return 'document_in_contingency';
  if (document.attempts > 0) {
    // A send was claimed and its outcome is not recorded: in flight, or lost with its process.
    return now.getTime() - document.updatedAt.getTime() < SUBMISSION_IN_FLIGHT_MS
      ? 'document_taxauth_submission_in_progress'
      : 'document_taxauth_submission_uncertain';
  }
  return null;
}

export function conflictsOf(documents: readonly TCoveredDocumentRow[], now: Date): TAnnulmentConflict[] {
  return documents.flatMap((document) => {
    const reason = conflictReasonOf(document, now);
    return reason === null
      ? []
      : [{ encf: document.encf, documentId: document.id, status: document.status, reason }];
  });
}

/** The request as stored and fingerprinted: ranges in the given order, trimmed reason or null. */
export function canonicalRequestOf(request: TAnnulmentRequest): {
  ranges: Array<{ type: string; from: string; to: string }>;
  reason: string | null;
} {
  const reason =
    typeof request.reason === 'string' && request.reason.trim() !== '' ? request.reason.trim() : null;
  return {
    ranges: request.ranges.map((range) => ({ type: range.type, from: range.from, to: range.to })),
    reason,
  };
}

export function requestFingerprintOf(request: TAnnulmentRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(canonicalRequestOf(request)))
    .digest('hex');
}

/** Annulments are eCF operations tested in TesteCF (400 in CerteCF). */
export function assertAnnulmentEnvironment(environment: Environment): void {
  if (environment === 'CerteCF')
    throw new AppError(
      'ANECF_NOT_AVAILABLE_IN_CERTECF',
      'Annulments (ANECF) are eCF operations; test them in TesteCF, not in CerteCF.',
    );
}

/**
 * The unsigned ANECF of the request, checked by fiscal-core (eNCFs of the range's type, one series,
 * `from` ≤ `to`, no overlap, limits) and against the official XSD; 400 `ANECF_INVALID` otherwise.
 * Also the parsed ranges, for the reservation.
 */
export function buildAnnulmentXml(input: {
  rnc: string;
  request: TAnnulmentRequest;
  now: Date;
  xsd: TXsdValidators;
}): { xml: string; ranges: TReservedRange[] } {
  const built = buildAnecfXml({
    rncEmisor: input.rnc,
    annulledAt: formatDominicanDateTime(input.now.getTime()),
    ranges: input.request.ranges,
  });
  if (!built.success) {
    throw new AppError('ANECF_INVALID', 'The annulment request does not make a valid ANECF.', {
      details: {
        errors: built.issues.map((issue) => ({ path: issue.path, code: issue.code, message: issue.message })),
      },
    });
  }
  const checked = input.xsd.validateXml(built.data, 'ANECF', { unsigned: true });
  if (!checked.success) {
    throw new AppError('ANECF_INVALID', 'The ANECF does not meet its XSD.', {
      details: {
        errors: checked.issues.map((issue) => ({
          path: 'ANECF',
          code: 'XSD_VALIDATION_FAILED',
          message: issue.message,
        })),
      },
    });
  }
  return { xml: built.data, ranges: input.request.ranges.map(reservedRangeOf) };
}

/** A range already checked by fiscal-core, as the reservation stores it. */
function reservedRangeOf(range: { type: string; from: string; to: string }): TReservedRange {
  return {
    type: Number(range.type),
    prefix: range.from.slice(0, 3),
    firstEncf: range.from,
    lastEncf: range.to,
    firstNumber: Number(range.from.slice(3)),
    lastNumber: Number(range.to.slice(3)),
  };
}

/** The answer of every annulment endpoint (spec "Annulment result" and more). */
export type TAnnulmentView = {
  id: string;
  ok: boolean;
  status: AnnulmentState;
  ranges: Array<{ type: string; from: string; to: string; count: number }>;
  count: number;
  reason: string | null;
  createdAt: string;
  answeredAt: string | null;
  taxauth: { codigo: string | null; nombre: string | null; mensajes: string[] } | null;
  coveredDocuments: TCoveredDocuments;
  reconciliation: {
    outcome: string;
    evidenceSha256: string;
    reconciledAt: string;
    note: string | null;
  } | null;
};

type TStoredAnswer = {
  codigo?: unknown;
  nombre?: unknown;
  mensajes?: unknown;
};

function taxauthOf(answer: unknown): TAnnulmentView['taxauth'] {
  if (answer === null || typeof answer !== 'object') return null;
  const stored = answer as TStoredAnswer;
  // Stored by sendAnnulment as texts (the messages' `valor`).
  const mensajes = Array.isArray(stored.mensajes)
    ? stored.mensajes.filter((message): message is string => typeof message === 'string')
    : [];
  return {
    codigo: typeof stored.codigo === 'string' ? stored.codigo : null,
    nombre: typeof stored.nombre === 'string' ? stored.nombre : null,
    mensajes,
  };
}

export function annulmentViewOf(row: TAnnulmentRow): TAnnulmentView {
  const request = row.request as { reason?: string | null } | null;
  const ranges = row.ranges.map((range) => ({
    type: String(range.type),
    from: range.firstEncf,
    to: range.lastEncf,
    count: range.lastNumber - range.firstNumber + 1,
  }));
  const covered = (row.coveredDocuments as TCoveredDocuments | null) ?? { cancelled: [], skipped: [] };
  return {
    id: row.id,
    ok: row.state !== 'rejected' && row.state !== 'uncertain' && row.state !== 'failed',
    status: row.state,
    ranges,
    count: ranges.reduce((sum, range) => sum + range.count, 0),
    reason: request?.reason ?? null,
    createdAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    taxauth: taxauthOf(row.taxauthAnswer),
    coveredDocuments: covered,
    reconciliation: row.reconciliation as TAnnulmentView['reconciliation'],
  };
}

/** The HTTP status of an annulment's state: 202 accepted, 422 rejected, 502 uncertain, 200 built, sending or failed (never sent). */
export function httpStatusOf(state: AnnulmentState): 200 | 202 | 422 | 502 {
  if (state === 'accepted') return 202;
  if (state === 'rejected') return 422;
  if (state === 'uncertain') return 502;
  return 200;
}
