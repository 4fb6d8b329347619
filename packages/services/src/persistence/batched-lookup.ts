import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  prepared,
  type TCoalesced,
  type TSqlPool,
} from '@ecf/db';
import { retryOnConflict } from './retry-on-conflict.ts';

/**
 * A statement run ONCE for the lookups arriving together (one database round trip for a burst of
 * requests): `parametersOf` turns the batch into the statement's array parameters, the statement
 * answers one row per lookup it found with the lookup's 1-based `ord`, and each caller gets its
 * row (undefined when none). Retried as a whole on a deadlock or serialization failure. The API key
 * lookup and the Partner authentication both run this way.
 */
export function ordinalBatchStatement<TLookup, TRow>(
  text: string,
  parametersOf: (batch: TLookup[]) => unknown[][],
): (pool: TSqlPool) => TCoalesced<TLookup, TRow | undefined> {
  return coalescerPerKey((pool: TSqlPool) =>
    createCoalescer(
      batchOrEach(async (batch: TLookup[]): Promise<Array<TRow | undefined>> => {
        const { rows } = await retryOnConflict(() =>
          pool.query<TRow & { ord: string }>(prepared(text, parametersOf(batch))),
        );
        const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row as TRow]));
        return batch.map((_, index) => byOrdinal.get(index + 1));
      }),
    ),
  );
}
