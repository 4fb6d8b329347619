import type { TDatabase } from '@ecf/db';
import {
  failStaleBuiltAnnulments,
  findAnnulmentsToRecover,
  recordAnnulmentAnswer,
} from '../persistence/index.ts';
import { settleAcceptedAnnulment } from './settle-accepted-annulment.ts';

/** A `sending` annulment untouched this long lost its process: its outcome is unknown. */
export const ANNULMENT_SENDING_STALE_MS = 5 * 60_000;

/**
 * A `built` annulment (its send provably never reached the tax authority) that nobody sent again
 * with its key for this long is `failed` and frees its ranges: an abandoned request must not keep
 * its eNCF out of emission forever.
 */
export const ANNULMENT_BUILT_EXPIRY_MS = 24 * 60 * 60_000;

/**
 * The worker's sweep for annulments interrupted by a crash (SIGKILL included):
 * - `accepted` but not settled (killed between the tax authority's acceptance and the local
 *   cancellation): settled now, so every covered document ends `cancelled` or skipped;
 * - `sending` for longer than `staleSendingMs` (killed while the ANECF was in flight): `uncertain`
 *   with cause `no_answer`, never resent automatically (reconcile);
 * - `built` for longer than `builtExpiryMs` (the tax authority was unreachable and the client never
 *   sent it again with its key): `failed`, ranges freed (it never reached the tax authority).
 * The send-claim trigger keeps every document of a reserved range unsent meanwhile.
 */
export async function recoverAnnulments(options: {
  database: TDatabase;
  now?: Date;
  staleSendingMs?: number;
  builtExpiryMs?: number;
  limit?: number;
}): Promise<{ settled: number; madeUncertain: number; failed: number }> {
  const now = options.now ?? new Date();
  const staleBefore = new Date(now.getTime() - (options.staleSendingMs ?? ANNULMENT_SENDING_STALE_MS));
  const pending = await findAnnulmentsToRecover(options.database, {
    staleBefore,
    limit: options.limit ?? 100,
  });
  let settled = 0;
  let madeUncertain = 0;
  for (const annulment of pending) {
    if (annulment.state === 'accepted') {
      if (await settleAcceptedAnnulment({ database: options.database, annulmentId: annulment.id, now }))
        settled += 1;
    } else if (
      await recordAnnulmentAnswer(options.database, {
        annulmentId: annulment.id,
        state: 'uncertain',
        answer: { codigo: null, nombre: null, mensajes: [], cause: 'no_answer', recovered: true },
        at: now,
      })
    ) {
      madeUncertain += 1;
    }
  }
  const failed = await failStaleBuiltAnnulments(options.database, {
    before: new Date(now.getTime() - (options.builtExpiryMs ?? ANNULMENT_BUILT_EXPIRY_MS)),
    at: now,
    limit: options.limit ?? 100,
  });
  return { settled, madeUncertain, failed: failed.length };
}
