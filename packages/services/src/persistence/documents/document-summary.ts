/**
 * The overview's read of a tenant in one environment, in ONE statement: its documents counted by
 * Dominican calendar day of submission and status since a day, the documents in contingency, the
 * environment's open outage episode and the tenant's active certificate. The day buckets are a
 * range scan of the `(tenant_id, environment, submitted_at, status)` index (index-only).
 */
import { prepared, sqlPoolOf, type DocumentStatus, type Environment, type TDatabase } from '@ecf/db';

export type TDocumentSummaryRow = {
  /** Count per (Dominican day of `submitted_at`, status), days from `since`. */
  days: { day: string; status: DocumentStatus; count: number }[];
  contingency: { count: number; since: Date | null };
  /** The environment's open outage episode, if any. */
  episode: { code: string; service: string; degradedSince: Date } | null;
  /** The tenant's active certificate, if any. */
  certificate: { validFrom: Date; validTo: Date; subject: string } | null;
};

const SUMMARY = `
  SELECT
    (SELECT coalesce(json_agg(json_build_object('day', d.day, 'status', d.status, 'count', d.count)), '[]'::json)
       FROM (SELECT ((submitted_at AT TIME ZONE 'UTC') - interval '4 hours')::date AS day, status::text AS status, count(*)::int AS count
               FROM documents
              WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND submitted_at >= $3::timestamptz
              GROUP BY 1, 2) d) AS days,
    (SELECT count(*)::int FROM documents
      WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND status = 'contingency') AS contingency_count,
    (SELECT min(contingency_since) FROM documents
      WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND status = 'contingency') AS contingency_since,
    (SELECT json_build_object('code', code, 'service', service, 'degradedSince', degraded_since)
       FROM taxauth_episodes WHERE environment = $2::"Environment" AND restored_at IS NULL
      ORDER BY degraded_since LIMIT 1) AS episode,
    (SELECT json_build_object('validFrom', valid_from, 'validTo', valid_to, 'subject', subject)
       FROM tenant_certificates WHERE tenant_id = $1::uuid AND active AND revoked_at IS NULL
      ORDER BY created_at DESC LIMIT 1) AS certificate`;

type TRaw = {
  days: TDocumentSummaryRow['days'];
  contingency_count: number;
  contingency_since: Date | null;
  episode: { code: string; service: string; degradedSince: string } | null;
  certificate: { validFrom: string; validTo: string; subject: string } | null;
};

/** The overview's numbers of a tenant in one environment, counting documents submitted since `since`. */
export async function findDocumentSummary(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; since: Date },
): Promise<TDocumentSummaryRow> {
  const { rows } = await sqlPoolOf(database).query<TRaw>(
    prepared(SUMMARY, [input.tenantId, input.environment, input.since]),
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the summary statement returned no row');
  return {
    days: row.days,
    contingency: { count: row.contingency_count, since: row.contingency_since },
    episode:
      row.episode === null
        ? null
        : {
            code: row.episode.code,
            service: row.episode.service,
            degradedSince: new Date(row.episode.degradedSince),
          },
    certificate:
      row.certificate === null
        ? null
        : {
            validFrom: new Date(row.certificate.validFrom),
            validTo: new Date(row.certificate.validTo),
            subject: row.certificate.subject,
          },
  };
}
