import type { Environment, TDatabase } from '@ecf/db';
import { findSequenceRangeOfEncf, type TSequenceRangeRow } from '../persistence/index.ts';

/**
 * How long this process remembers that a tenant has no registered range in an environment. Range
 * registration is optional and most tenants never register one; without this memory every
 * emission would pay a read before its (group-committed) insert, which emission's hot path avoids.
 * A registration in this process forgets the memory at once; one in another process is seen by
 * rule 16 here within this time.
 */
export const NO_RANGES_MEMORY_MS = 10_000;
const MAX_REMEMBERED = 10_000;
/** An eNCF: E, the two-digit type and ten digits (rule 2). */
const ENCF_PATTERN = /^E[0-9]{12}$/;
const noRangesUntil = new Map<string, number>();

const keyOf = (tenantId: string, environment: Environment) => `${tenantId}/${environment}`;

/** Forgets that the tenant had no range (called by `registerSequenceRange`). */
export function forgetNoRegisteredRanges(tenantId: string, environment: Environment): void {
  noRangesUntil.delete(keyOf(tenantId, environment));
}

/** The registered range containing an eNCF (rule 16), or null. */
export async function findRegisteredRange(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  encf: string;
  now?: number;
}): Promise<TSequenceRangeRow | null> {
  // No look-up with client text that is not an eNCF (rule 2 refuses it): a range holds only eNCFs.
  if (!ENCF_PATTERN.test(options.encf)) return null;
  const now = options.now ?? Date.now();
  const key = keyOf(options.tenantId, options.environment);
  if ((noRangesUntil.get(key) ?? 0) > now) return null;
  const { range, anyRange } = await findSequenceRangeOfEncf(options.database, options);
  if (anyRange) noRangesUntil.delete(key);
  else {
    if (noRangesUntil.size >= MAX_REMEMBERED) noRangesUntil.clear();
    noRangesUntil.set(key, now + NO_RANGES_MEMORY_MS);
  }
  return range;
}
