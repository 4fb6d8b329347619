import type { TSequenceRangeWithCounts } from '../persistence/index.ts';

/** A registered range as the API and the portal show it. */
export type TSequenceRange = {
  id: string;
  type: string;
  from: string;
  to: string;
  /** `YYYY-MM-DD`. */
  sequenceExpirationDate: string;
  /** ISO 8601. */
  registeredAt: string;
  counts: { total: number; used: number; annulled: number; free: number };
};

export function sequenceRangeViewOf(row: TSequenceRangeWithCounts): TSequenceRange {
  const total = row.lastNumber - row.firstNumber + 1;
  return {
    id: row.id,
    type: String(row.type),
    from: row.firstEncf,
    to: row.lastEncf,
    sequenceExpirationDate: row.sequenceExpirationDate,
    registeredAt: row.registeredAt.toISOString(),
    counts: {
      total,
      used: row.used,
      annulled: row.annulled,
      free: Math.max(0, total - row.used - row.annulled),
    },
  };
}
