import type { TJobPayload } from '@ecf/db';
import { advanceCertificationApprovals } from '@ecf/services';
import type { TJobContext } from './context.ts';

/** One commercial approval of a certification send (thin: the use-case signs, sends and hands the chain on). */
export async function sendCertificationApprovalsJob(
  payload: TJobPayload<'certification.send-approvals'>,
  context: TJobContext,
): Promise<void> {
  const clientFor = context.taxauthClientFor;
  if (!clientFor)
    throw new Error('the worker has no tax authority client (taxauth options not given to createWorker)');
  const report = await advanceCertificationApprovals({
    database: context.database,
    sendId: payload.sendId,
    generation: payload.generation,
    enqueue: context.enqueue,
    clientFor,
    xsd: context.xsdValidators,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    now: context.now,
  });
  if (report.outcome !== 'stale')
    context.log.info(
      { sendId: report.sendId, outcome: report.outcome, position: report.position },
      'certification approval step',
    );
}
