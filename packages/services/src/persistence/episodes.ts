/**
 * Outage episodes of the tax authority per environment (`taxauth_episodes`, one open at a time):
 * opened by the first transient failure, closed by the first answer. A state change that is an
 * answer closes the episode in its own statement (`closeEpisode` of `changeDocument`); these are
 * for the steps that change no document.
 */
import { randomUUID } from 'node:crypto';
import {
  coalescerPerKey,
  createCoalescer,
  isSqlPool,
  prepared,
  type Environment,
  type TSql,
  type TSqlPool,
} from '@ecf/db';

/**
 * Opens the environment's outage episode unless one is open (partial unique index: concurrent
 * workers open it once). True when this call opened it.
 */
export async function openEpisode(
  sql: TSql,
  environment: Environment,
  code: string,
  at: Date,
): Promise<boolean> {
  const inserted = await sql.query(
    `INSERT INTO taxauth_episodes (id, environment, code, degraded_since, created_at)
     VALUES ($1::uuid, $2::"Environment", $3, $4, $4)
     ON CONFLICT (environment) WHERE restored_at IS NULL DO NOTHING`,
    [randomUUID(), environment, code, at],
  );
  return (inserted.rowCount ?? 0) > 0;
}

/**
 * Closes the environment's open episode (the tax authority answered). True when this call closed
 * one. On the pool, concurrent calls are coalesced: one statement per environment, at the earliest
 * time given, whose closing is reported to the first of them.
 */
export async function closeEpisode(sql: TSql, environment: Environment, at: Date): Promise<boolean> {
  if (isSqlPool(sql)) return coalescedCloses(sql)({ environment, at });
  return closeOne(sql, environment, at);
}

async function closeOne(sql: TSql, environment: Environment, at: Date): Promise<boolean> {
  const updated = await sql.query(
    prepared(
      `UPDATE taxauth_episodes SET restored_at = GREATEST($1::timestamptz, degraded_since) WHERE environment = $2::"Environment" AND restored_at IS NULL`,
      [at, environment],
    ),
  );
  return (updated.rowCount ?? 0) > 0;
}

const coalescedCloses = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer<{ environment: Environment; at: Date }, boolean>(async (closes) => {
    const results: Array<PromiseSettledResult<boolean>> = closes.map(() => ({
      status: 'fulfilled',
      value: false,
    }));
    for (const environment of new Set(closes.map((close) => close.environment))) {
      const indexes = closes.flatMap((close, index) => (close.environment === environment ? [index] : []));
      const at = new Date(Math.min(...indexes.map((index) => (closes[index] as { at: Date }).at.getTime())));
      const [first] = indexes;
      try {
        if (first !== undefined)
          results[first] = { status: 'fulfilled', value: await closeOne(pool, environment, at) };
      } catch (error) {
        for (const index of indexes) results[index] = { status: 'rejected', reason: error };
      }
    }
    return results;
  }),
);
