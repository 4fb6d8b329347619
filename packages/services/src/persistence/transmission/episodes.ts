/**
 * Outage episodes of the tax authority per environment (`taxauth_episodes`, one open at a time).
 *
 * An episode is about SENDS: it opens when a send goes to contingency (the reception, its
 * authentication or the query that must precede a resend did not answer), and it records which
 * reception service the failing sends needed (`recepcion` for an e-CF, `recepcionfc` for an RFCE).
 * It closes only on evidence that this service takes documents again: a successful reception of
 * that service (a TrackID, an RFCE answer) in that environment whose request left at or after the
 * episode opened. A status query, an authentication, a ConsultaTrackIds that finds an earlier
 * reception, another service's answer, or a reception whose request left before the outage began
 * (a straggler) do not close it: that is what made one outage of reception alone open and close
 * several episodes, each of which becomes a degraded/restored webhook pair.
 *
 * A successful send closes the episode in its own statement (`closeEpisode` of `changeDocument`);
 * these are for the steps that change no document (an RFCE answer that is not final).
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
import { latestClosePerEpisode, type TEpisodeClose, type TReceptionService } from '../statements.ts';

export type { TEpisodeClose, TReceptionService } from '../statements.ts';

/**
 * Opens the environment's outage episode unless one is open (partial unique index: concurrent
 * workers open it once). True when this call opened it.
 */
export async function openEpisode(
  sql: TSql,
  input: { environment: Environment; service: TReceptionService; code: string; at: Date },
): Promise<boolean> {
  const inserted = await sql.query(
    `INSERT INTO taxauth_episodes (id, environment, service, code, degraded_since, created_at)
     VALUES ($1::uuid, $2::"Environment", $3, $4, $5, $5)
     ON CONFLICT (environment) WHERE restored_at IS NULL DO NOTHING`,
    [randomUUID(), input.environment, input.service, input.code, input.at],
  );
  return (inserted.rowCount ?? 0) > 0;
}

/**
 * Closes the environment's open episode of `service` when the reception that answered left at or
 * after it opened (`requestedAt`). True when this call closed it. On the pool, concurrent calls
 * are coalesced: one statement per environment and service, with the latest request among them,
 * whose closing is reported to that call.
 */
export async function closeEpisode(sql: TSql, close: TEpisodeClose): Promise<boolean> {
  if (isSqlPool(sql)) return coalescedCloses(sql)(close);
  return closeOne(sql, close);
}

async function closeOne(sql: TSql, close: TEpisodeClose): Promise<boolean> {
  const updated = await sql.query(
    prepared(
      `UPDATE taxauth_episodes SET restored_at = GREATEST($1::timestamptz, degraded_since)
       WHERE environment = $2::"Environment" AND service = $3 AND restored_at IS NULL AND degraded_since <= $4::timestamptz`,
      [close.at, close.environment, close.service, close.requestedAt],
    ),
  );
  return (updated.rowCount ?? 0) > 0;
}

const coalescedCloses = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer<TEpisodeClose, boolean>(async (closes) => {
    const results: Array<PromiseSettledResult<boolean>> = closes.map(() => ({
      status: 'fulfilled',
      value: false,
    }));
    for (const [latest, indexes] of latestClosePerEpisode(closes)) {
      try {
        results[latest] = {
          status: 'fulfilled',
          value: await closeOne(pool, closes[latest] as TEpisodeClose),
        };
      } catch (error) {
        for (const index of indexes) results[index] = { status: 'rejected', reason: error };
      }
    }
    return results;
  }),
);
