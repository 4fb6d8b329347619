import type { TDatabase } from '@ecf/db';
import { findTaxauthEpisodeRows } from '../persistence/index.ts';

/**
 * The tax authority's outage episodes for the support desk's timeline, newest first: every open
 * one and those that began in the last `days` (default 30), at most `limit` (default 200). No
 * tenant's data: episodes are per environment.
 */
export async function findOutageEpisodes(options: {
  database: TDatabase;
  days?: number;
  limit?: number;
  now?: () => Date;
}) {
  const now = (options.now ?? (() => new Date()))();
  const days = options.days ?? 30;
  const rows = await findTaxauthEpisodeRows(options.database, {
    since: new Date(now.getTime() - days * 24 * 3600_000),
    take: options.limit ?? 200,
  });
  return rows.map((row) => ({
    id: row.id,
    environment: row.environment,
    service: row.service,
    code: row.code,
    degradedSince: row.degradedSince.toISOString(),
    restoredAt: row.restoredAt?.toISOString() ?? null,
    open: row.restoredAt === null,
    durationSeconds: Math.max(
      0,
      Math.round(((row.restoredAt ?? now).getTime() - row.degradedSince.getTime()) / 1000),
    ),
  }));
}
