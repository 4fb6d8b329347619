import type { TJobPayload } from '@ecf/db';
import { deliverToReceiver, type TReceiverDeliveryReport } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Delivers an accepted e-CF to its buyer (thin: the use-case decides, this schedules). A retry is
 * a new job sent with `startAfter` before this one completes; a crash in between re-runs this job,
 * and the use-case, guarded by its attempts count and lease, does not send twice at once.
 */
export async function deliverToReceiverJob(
  payload: TJobPayload<'document.deliver-to-receiver'>,
  context: TJobContext,
): Promise<void> {
  if (!context.taxauthClientFor)
    throw new Error('the worker has no tax authority client (taxauth options not given to createWorker)');
  if (!context.xsdValidators)
    throw new Error('the worker has no XSD validators: receiver acknowledgements (ARECF) cannot be checked');
  const report = await deliverToReceiver({
    database: context.database,
    documentId: payload.documentId,
    clientFor: context.taxauthClientFor,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    xsdValidators: context.xsdValidators,
    now: context.now,
  });
  await scheduleDelivery(report, context);
}

async function scheduleDelivery(report: TReceiverDeliveryReport, context: TJobContext): Promise<void> {
  const log = context.log.child({ documentId: report.documentId });
  const afterSeconds = report.next === 'retry' ? report.afterSeconds : undefined;
  log.info(
    {
      outcome: report.outcome,
      status: report.status,
      next: report.next,
      ...(afterSeconds === undefined ? {} : { afterSeconds }),
    },
    'receiver delivery step',
  );
  if (report.status === 'uncertain')
    log.warn(
      { outcome: report.outcome },
      'receiver delivery uncertain: reconcile with POST .../entrega-receptor/reconciliar',
    );
  if (report.next === 'done') return;
  await context.enqueue([
    {
      name: 'document.deliver-to-receiver',
      payload: { documentId: report.documentId },
      startAfterSeconds: report.afterSeconds,
    },
  ]);
}
