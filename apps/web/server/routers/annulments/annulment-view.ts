import type { TAnnulmentView } from '@ecf/services';

/** What the page shows of an annulment (never its signed XML). */
export function annulmentViewOf(annulment: TAnnulmentView) {
  return {
    id: annulment.id,
    ok: annulment.ok,
    status: annulment.status,
    reason: annulment.reason,
    ranges: annulment.ranges,
    taxauth: annulment.taxauth,
    coveredDocuments: annulment.coveredDocuments,
    reconciliation: annulment.reconciliation,
    createdAt: annulment.createdAt,
    answeredAt: annulment.answeredAt,
  };
}
