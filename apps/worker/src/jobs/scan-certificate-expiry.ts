import type { TJobPayload } from '@ecf/db';
import { scanCertificateExpiry } from '@ecf/services';
import type { TJobContext } from './context.ts';

/** The daily scan of the Partner accounts' certificates: `certificate.expiring` / `certificate.expired`, once each. */
export async function scanCertificateExpiryJob(
  _payload: TJobPayload<'maintenance.certificate-expiry'>,
  context: TJobContext,
) {
  const result = await scanCertificateExpiry({ database: context.database, now: context.now });
  if (result.expiring.length + result.expired.length > 0)
    context.log.info(
      { expiring: result.expiring.length, expired: result.expired.length },
      'certificate expiry announced',
    );
}
