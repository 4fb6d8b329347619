import type { TJobPayload } from '@ecf/db';
import { syncCertificationCases } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Completes the certification steps the service observes (receptions in CerteCF, the account in
 * the eCF directory: production active) and resumes run and approval chains whose jobs were lost.
 */
export async function syncCertificationJob(
  payload: TJobPayload<'certification.sync'>,
  context: TJobContext,
): Promise<void> {
  const report = await syncCertificationCases({
    database: context.database,
    tenantId: payload.tenantId,
    enqueue: context.enqueue,
    clientFor: context.taxauthClientFor,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    now: context.now,
    log: (message, details) => context.log.warn(details, message),
  });
  if (report.resumedChains > 0 || report.completed.length > 0 || report.activated.length > 0)
    context.log.info(report, 'certification sync');
}
