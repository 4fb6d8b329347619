import type { TDatabase } from '@ecf/db';
import { markCertificatesExpiring } from '../persistence/index.ts';

/** A certificate is announced as expiring this many days (or fewer) before its end. */
export const CERTIFICATE_EXPIRING_WITHIN_DAYS = 30;

/**
 * The daily scan behind `certificate.expiring` and `certificate.expired` (Partner events): each
 * active certificate of a Partner's account is marked once per kind; the marking statement's
 * trigger writes the outbox events (one per environment), whoever runs the scan.
 */
export async function scanCertificateExpiry(options: { database: TDatabase; now: () => Date }) {
  return markCertificatesExpiring(options.database, {
    now: options.now(),
    withinDays: CERTIFICATE_EXPIRING_WITHIN_DAYS,
  });
}
