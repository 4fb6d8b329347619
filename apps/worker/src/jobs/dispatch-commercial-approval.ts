import type { TJobPayload } from '@ecf/db';
import { dispatchCommercialApproval, type TCommercialApprovalDispatchReport } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * The outbox of a commercial approval (ACECF) to its issuer (thin: the use-case decides, this
 * schedules). One attempt per run; a retry is a new job with `startAfter` sent before this one
 * completes. A redelivered job (or the request's own attempt running at the same time) loses the
 * guarded claim and POSTs nothing; a worker killed mid-POST leaves a `sending` whose lapsed lease
 * makes the next run record `uncertain` (never resent: reconcile).
 */
export async function dispatchCommercialApprovalJob(
  payload: TJobPayload<'commercial-approval.dispatch'>,
  context: TJobContext,
): Promise<void> {
  const report = await dispatchCommercialApproval({
    database: context.database,
    commercialApprovalId: payload.commercialApprovalId,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    now: context.now,
  });
  await scheduleNext(report, context);
}

async function scheduleNext(report: TCommercialApprovalDispatchReport, context: TJobContext): Promise<void> {
  const log = context.log.child({ commercialApprovalId: report.commercialApprovalId });
  log.info(
    {
      outcome: report.outcome,
      status: report.status,
      next: report.next,
      ...(report.next === 'retry' ? { afterSeconds: report.afterSeconds } : {}),
    },
    'commercial approval dispatch step',
  );
  if (report.status === 'uncertain')
    log.warn(
      { outcome: report.outcome },
      'commercial approval dispatch uncertain: reconcile with POST .../aprobacion-comercial/reconciliar',
    );
  if (report.next === 'done') return;
  await context.enqueue([
    {
      name: 'commercial-approval.dispatch',
      payload: { commercialApprovalId: report.commercialApprovalId },
      startAfterSeconds: report.afterSeconds,
    },
  ]);
}
