import type { TSequenceRange } from '@ecf/services';

/** What the page shows of a registered range. */
export function sequenceRangeViewOf(range: TSequenceRange) {
  return {
    id: range.id,
    type: range.type,
    from: range.from,
    to: range.to,
    sequenceExpirationDate: range.sequenceExpirationDate,
    registeredAt: range.registeredAt,
    counts: range.counts,
  };
}
