import { DocumentStatus, type Environment, type TDatabase } from '@ecf/db';
import { dominicanDateOf } from '@ecf/fiscal-core';
import { findDocumentSummary } from '../persistence/index.ts';

/** Days the overview counts and charts, today included. */
export const SUMMARY_DAYS = 30;
/** A certificate that expires within this many days is announced on the overview. */
export const CERTIFICATE_WARNING_DAYS = 30;
/** The statuses the chart counts as accepted by the tax authority. */
export const ACCEPTED_STATUSES: readonly DocumentStatus[] = ['accepted', 'accepted_conditional'];

const DAY_MS = 86_400_000;
/** Dominican Republic time is UTC-4 all year: its midnight is 04:00 UTC. */
const DOMINICAN_MIDNIGHT_UTC_MS = 4 * 3_600_000;

export type TStatusCounts = Record<DocumentStatus, number>;

export type TCertificateState =
  | { state: 'missing' }
  | { state: 'expired' | 'expiring' | 'valid'; validTo: Date; daysLeft: number; subject: string };

export type TDocumentSummary = {
  environment: Environment;
  /** Dominican calendar date of today (`YYYY-MM-DD`). */
  today: string;
  /** Documents submitted today (Dominican time) by status, and in total. */
  todayCounts: { byStatus: TStatusCounts; total: number };
  /** Documents submitted in the last {@link SUMMARY_DAYS} days (today included) by status, and in total. */
  periodCounts: { byStatus: TStatusCounts; total: number };
  /** Accepted documents per day of submission, oldest first, {@link SUMMARY_DAYS} entries. */
  acceptedPerDay: { day: string; count: number }[];
  /** Documents of the tenant in this environment waiting in contingency (since the oldest). */
  contingency: { count: number; since: Date | null };
  /** The environment's open outage episode of the tax authority, if any. */
  openEpisode: { code: string; service: string; since: Date } | null;
  certificate: TCertificateState;
};

function zeroCounts(): TStatusCounts {
  return Object.fromEntries(Object.values(DocumentStatus).map((status) => [status, 0])) as TStatusCounts;
}

function isoDay(instantMs: number): string {
  const { year, month, day } = dominicanDateOf(instantMs);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The overview of a tenant in one environment: documents by status submitted today (Dominican
 * time) and in the last {@link SUMMARY_DAYS} days, accepted documents per day, and what the page
 * must warn about: documents in contingency or an open outage episode of the environment, and an
 * active certificate that is missing, expired or expires within {@link CERTIFICATE_WARNING_DAYS} days.
 * One statement (`findDocumentSummary`).
 */
export async function summarizeDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  now?: Date;
}): Promise<TDocumentSummary> {
  const now = (options.now ?? new Date()).getTime();
  const { year, month, day } = dominicanDateOf(now);
  const todayStart = Date.UTC(year, month - 1, day) + DOMINICAN_MIDNIGHT_UTC_MS;
  const since = todayStart - (SUMMARY_DAYS - 1) * DAY_MS;
  const row = await findDocumentSummary(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    since: new Date(since),
  });

  const today = isoDay(now);
  const days = Array.from({ length: SUMMARY_DAYS }, (_, index) => isoDay(since + index * DAY_MS));
  const accepted = new Map(days.map((entry) => [entry, 0]));
  const todayCounts = { byStatus: zeroCounts(), total: 0 };
  const periodCounts = { byStatus: zeroCounts(), total: 0 };
  for (const bucket of row.days) {
    periodCounts.byStatus[bucket.status] += bucket.count;
    periodCounts.total += bucket.count;
    if (bucket.day === today) {
      todayCounts.byStatus[bucket.status] += bucket.count;
      todayCounts.total += bucket.count;
    }
    if (ACCEPTED_STATUSES.includes(bucket.status) && accepted.has(bucket.day))
      accepted.set(bucket.day, (accepted.get(bucket.day) ?? 0) + bucket.count);
  }

  let certificate: TCertificateState = { state: 'missing' };
  if (row.certificate !== null) {
    const left = row.certificate.validTo.getTime() - now;
    certificate = {
      state: left <= 0 ? 'expired' : left <= CERTIFICATE_WARNING_DAYS * DAY_MS ? 'expiring' : 'valid',
      validTo: row.certificate.validTo,
      daysLeft: Math.floor(left / DAY_MS),
      subject: row.certificate.subject,
    };
  }

  return {
    environment: options.environment,
    today,
    todayCounts,
    periodCounts,
    acceptedPerDay: days.map((entry) => ({ day: entry, count: accepted.get(entry) ?? 0 })),
    contingency: row.contingency,
    openEpisode:
      row.episode === null
        ? null
        : { code: row.episode.code, service: row.episode.service, since: row.episode.degradedSince },
    certificate,
  };
}
