/**
 * The worker processes' leases (`worker_instances`): each process registers a row when it starts
 * and renews its `heartbeat_at` every few seconds. A row whose heartbeat lapsed, not yet
 * `recovered_at`, is a process that died (or stopped) and may have left jobs `active`: the cheap
 * signal, read every few seconds, that the documents of lost jobs must be looked for (a look that
 * reads the job table, so it is made only then). Times are the database's, like pg-boss's.
 */
import { prepared, type TSql } from '@ecf/db';

/** Registers a starting worker process (its lease starts now). */
export async function insertWorkerInstance(
  sql: TSql,
  instance: { id: string; host: string; pid: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO worker_instances (id, host, pid, started_at, heartbeat_at) VALUES ($1::uuid, $2, $3::int, now(), now())`,
    [instance.id, instance.host.slice(0, 255), instance.pid],
  );
}

/** Renews a worker's lease; false when its row is gone (purged) or was already recovered as dead. */
export async function touchWorkerInstance(sql: TSql, id: string): Promise<boolean> {
  const updated = await sql.query(
    prepared(
      `UPDATE worker_instances SET heartbeat_at = now() WHERE id = $1::uuid AND recovered_at IS NULL`,
      [id],
    ),
  );
  return (updated.rowCount ?? 0) > 0;
}

/** The workers whose lease lapsed `deadAfterSeconds` ago and whose lost jobs were not looked for yet. */
export async function findDeadWorkerInstances(
  sql: TSql,
  input: { deadAfterSeconds: number },
): Promise<Array<{ id: string; host: string; pid: number; heartbeatAt: Date }>> {
  const { rows } = await sql.query<{ id: string; host: string; pid: number; heartbeat_at: Date }>(
    prepared(
      `SELECT id, host, pid, heartbeat_at FROM worker_instances
       WHERE recovered_at IS NULL AND heartbeat_at < now() - make_interval(secs => $1::int)
       ORDER BY heartbeat_at LIMIT 100`,
      [input.deadAfterSeconds],
    ),
  );
  return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, heartbeatAt: row.heartbeat_at }));
}

/** Marks dead workers as looked after (their lost jobs' documents were requeued). */
export async function markWorkerInstancesRecovered(sql: TSql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql.query(
    `UPDATE worker_instances SET recovered_at = now() WHERE id = ANY($1::uuid[]) AND recovered_at IS NULL`,
    [ids],
  );
}

/** Deletes the rows of workers recovered before `before`. */
export async function deleteRecoveredWorkerInstances(sql: TSql, before: Date): Promise<number> {
  const deleted = await sql.query(`DELETE FROM worker_instances WHERE recovered_at < $1::timestamptz`, [
    before,
  ]);
  return deleted.rowCount ?? 0;
}

/**
 * What became of the worker process that made an attempt: `gone` when its row was purged, the
 * recovery already found it dead (`recovered_at`), or its lease was not renewed for
 * `deadAfterSeconds`; and how long, by the database's clock, until `settleMs` have passed since its
 * last renewal (0 when they have, or when the row is gone): a request it sent before it died has
 * reached the tax authority and been answered, or never will be, by then.
 */
export async function findWorkerInstanceFate(
  sql: TSql,
  input: { id: string; deadAfterSeconds: number; settleMs: number },
): Promise<{ gone: boolean; settlesInMs: number }> {
  // A malformed id (an event written by hand) is nobody's lease: unknown, so not known to be gone.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.id))
    return { gone: false, settlesInMs: 0 };
  const { rows } = await sql.query<{ gone: boolean; settles_in_ms: number }>(
    prepared(
      `SELECT (recovered_at IS NOT NULL OR heartbeat_at < now() - make_interval(secs => $2::int)) AS gone,
              GREATEST(0, ceil(EXTRACT(EPOCH FROM (heartbeat_at + make_interval(secs => $3::double precision / 1000) - now())) * 1000))::int AS settles_in_ms
         FROM worker_instances WHERE id = $1::uuid`,
      [input.id, input.deadAfterSeconds, input.settleMs],
    ),
  );
  const row = rows[0];
  return row === undefined
    ? { gone: true, settlesInMs: 0 }
    : { gone: row.gone, settlesInMs: row.settles_in_ms };
}
