import pg from 'pg';
import { getMigrationStatus, readMigrationFiles, type TMigrationFile } from '@ecf/db';

export type TCheck = { ok: boolean; latencyMs: number; error?: string; details?: Record<string, unknown> };
export type TReadiness = { ok: boolean; checks: { storage: TCheck; migrations: TCheck; rateLimit: TCheck } };

const CHECK_TIMEOUT_MS = 2000;

async function timed(run: () => Promise<Record<string, unknown> | undefined>): Promise<TCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const details = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started), ...(details ? { details } : {}) };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness probes on a small pool of their own, so a saturated application pool never makes
 * the instance look dead, and a dead database answers within the timeout instead of hanging.
 */
export function createReadinessProbe(databaseUrl: string, maxConnections = 2) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    connectionTimeoutMillis: CHECK_TIMEOUT_MS,
  });
  pool.on('error', () => {}); // idle connections dying with the database are reported by the checks
  let files: TMigrationFile[] | undefined;

  async function check(): Promise<TReadiness> {
    files ??= await readMigrationFiles();
    const migrationFiles = files;
    const storage = await timed(async () => {
      await pool.query('SELECT 1');
      return undefined;
    });
    const migrations = storage.ok
      ? await timed(async () => {
          const status = await getMigrationStatus(pool, migrationFiles);
          if (status.pending.length || status.modified.length || status.missing.length) {
            throw new Error(
              `migrations not in sync: ${JSON.stringify({ pending: status.pending, modified: status.modified, missing: status.missing })}`,
            );
          }
          return { applied: status.applied.length };
        })
      : { ok: false, latencyMs: 0, error: 'storage unavailable' };
    const rateLimit = migrations.ok
      ? await timed(async () => {
          await pool.query('SELECT 1 FROM rate_limit_counters LIMIT 1');
          return undefined;
        })
      : { ok: false, latencyMs: 0, error: storage.ok ? 'schema not migrated' : 'storage unavailable' };
    return { ok: storage.ok && migrations.ok && rateLimit.ok, checks: { storage, migrations, rateLimit } };
  }

  return { check, close: () => pool.end() };
}
