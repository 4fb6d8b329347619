import type { TJobPayload } from '@ecf/db';
import { transmitSignedDocument, type TTransmissionOptions, type TTransmissionReport } from '@ecf/services';
import type { TJobContext } from './registry.ts';

/**
 * Sends a signed e-CF to the tax authority (thin: the use-case decides, this schedules). The
 * follow-up job is enqueued before this job completes, so a crash in between re-runs this job
 * (pg-boss retry) and the use-case, idempotent, reaches the same decision without sending twice.
 */
export async function transmitDocument(payload: TJobPayload<'document.transmit'>, context: TJobContext) {
  // With `enqueue`, an RFCE acceptance enqueues the buyer e-mail in its own transaction.
  const report = await transmitSignedDocument(context.database, payload.documentId, {
    ...transmissionOptionsOf(context),
    ...(context.enqueue ? { enqueue: context.enqueue } : {}),
  });
  await scheduleNext(report, context);
}

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
    notifyOperator: (notification) => {
      const message = notification.data['message'];
      log.warn(
        { notification },
        `operator notification: ${typeof message === 'string' ? message : notification.kind}`,
      );
    },
  };
}

/** Logs the step and enqueues what the use-case asked for (`startAfter` in seconds). */
export async function scheduleNext(report: TTransmissionReport, context: TJobContext): Promise<void> {
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
  if (!context.send) throw new Error('the job context cannot enqueue follow-up jobs (send missing)');
  const name = report.next === 'poll' ? 'document.poll-status' : 'document.transmit';
  const id = await context.send(name, { documentId: report.documentId }, { startAfter: report.afterSeconds });
  if (id === null) throw new Error(`${name} for ${report.documentId} was not enqueued`);
}
