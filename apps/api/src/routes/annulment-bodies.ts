import type { Environment } from '@ecf/db';
import type {
  TAnnulmentPrevalidation,
  TAnnulmentSummary,
  TAnnulmentView,
  TSequenceRange,
} from '@ecf/services';

/** A registered range as the API shows it. */
export function sequenceRangeOf(range: TSequenceRange) {
  return {
    sequenceId: range.id,
    type: range.type,
    from: range.from,
    to: range.to,
    sequenceExpirationDate: range.sequenceExpirationDate,
    status: 'active' as const,
    registeredAt: range.registeredAt,
    counts: range.counts,
  };
}

/** The 200 of prevalidar: what would be sent and the documents it would cancel. */
export function prevalidationBodyOf(environment: Environment, result: TAnnulmentPrevalidation) {
  return {
    ok: true as const,
    environment,
    status: 'validated' as const,
    ranges: result.ranges,
    totalEncf: result.count,
    coveredDocuments: { cancellable: result.coveredDocuments.cancellable },
  };
}

/** An annulment (send, replay, GET, reconcile) as the API shows it. */
export function annulmentBodyOf(environment: Environment, annulment: TAnnulmentView) {
  return {
    ok: annulment.ok,
    annulmentId: annulment.id,
    environment,
    status: annulment.status,
    reason: annulment.reason,
    ranges: annulment.ranges,
    totalEncf: annulment.ranges.reduce((sum, range) => sum + range.count, 0),
    taxauth: annulment.taxauth,
    coveredDocuments: annulment.coveredDocuments,
    reconciliation: annulment.reconciliation,
    createdAt: annulment.createdAt,
    answeredAt: annulment.answeredAt,
  };
}

/** A line of the annulment list: the annulment without its covered document lists. */
export function annulmentSummaryOf(environment: Environment, annulment: TAnnulmentSummary) {
  const { coveredDocuments: _lists, ...body } = annulmentBodyOf(environment, {
    ...annulment,
    coveredDocuments: { cancelled: [], skipped: [] },
  });
  return { ...body, coveredCounts: annulment.coveredCounts };
}
