/**
 * What the transmission jobs (`document.sign`, `document.transmit`, `document.poll-status`) share:
 * the use-cases' options from the job context, and the scheduling of the step the use-case asks for.
 */
import type { TTransmissionOptions, TTransmissionReport } from '@ecf/services';
import type { TJobContext } from './context.ts';

/** What the transmission use-cases need from the job context. */
export function transmissionOptionsOf(context: TJobContext): TTransmissionOptions {
  if (!context.taxauthClientFor)
    throw new Error('the worker has no tax authority client (taxauth options not given to createWorker)');
  const log = context.log;
  return {
    clientFor: context.taxauthClientFor,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    now: context.now,
    ...(context.transmitInFlightMs === undefined ? {} : { inFlightMs: context.transmitInFlightMs }),
    ...(context.workerLease === undefined
      ? {}
      : {
          workerInstanceId: context.workerLease.instanceId,
          workerDeadAfterSeconds: context.workerLease.deadAfterSeconds,
          orphanSettleMs: context.workerLease.orphanSettleMs,
          workerLeaseFresh: context.workerLease.leaseFresh,
        }),
    notifyOperator: (notification) => {
      const message = notification.data['message'];
      log.warn(
        { notification },
        `operator notification: ${typeof message === 'string' ? message : notification.kind}`,
      );
    },
    // An acceptance enqueues its next steps (receiver delivery, buyer e-mail) in its own transaction.
    enqueue: context.enqueue,
  };
}

/**
 * Logs the step and enqueues what the use-case asked for (`startAfter` in seconds), before the job
 * completes: a crash in between re-runs the job, and the use-cases are idempotent.
 */
export async function scheduleTransmissionStep(
  report: TTransmissionReport,
  context: TJobContext,
): Promise<void> {
  const log = context.log.child({ documentId: report.documentId });
  if (report.episode === 'degraded')
    log.warn({ episode: 'degraded' }, 'the tax authority stopped answering in this environment');
  if (report.episode === 'restored')
    log.info({ episode: 'restored' }, 'the tax authority answers again in this environment');
  const lastError = report.lastError
    ? { code: report.lastError.code, reason: report.lastError.reason }
    : undefined;
  log.info(
    {
      outcome: report.outcome,
      next: report.next,
      ...('afterSeconds' in report ? { afterSeconds: report.afterSeconds } : {}),
      lastError,
    },
    'transmission step',
  );
  if (report.next === 'done') return;
  const name = report.next === 'poll' ? 'document.poll-status' : 'document.transmit';
  await context.enqueue([
    { name, payload: { documentId: report.documentId }, startAfterSeconds: report.afterSeconds },
  ]);
}
