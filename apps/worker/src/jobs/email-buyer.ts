import type { TJobPayload } from '@ecf/db';
import { sendBuyerEmail } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * E-mails the buyer a signed link to the printed representation (thin: the use-case decides and
 * records each attempt). A transient SMTP failure throws, so pg-boss retries the job with the
 * queue's backoff; the fiscal pipeline never waits for it. An earlier attempt that may still be
 * running elsewhere is asked about again later (a new job, sent before this one completes).
 */
export async function emailBuyerJob(
  payload: TJobPayload<'document.email-buyer'>,
  context: TJobContext,
): Promise<void> {
  if (!context.buyerEmail)
    throw new Error('the worker has no buyer e-mail settings (buyerEmail not given to createWorker)');
  const log = context.log.child({ documentId: payload.documentId });
  const report = await sendBuyerEmail({
    ...context.buyerEmail,
    database: context.database,
    documentId: payload.documentId,
    now: context.now,
    notifyOperator: (notification) => {
      const message = notification.data['message'];
      log.warn(
        { notification },
        `operator notification: ${typeof message === 'string' ? message : notification.kind}`,
      );
    },
  });
  const step = {
    outcome: report.outcome,
    ...(report.attempt === undefined ? {} : { attempt: report.attempt }),
    ...(report.resolvedBy === undefined ? {} : { resolvedBy: report.resolvedBy }),
  };
  if (report.outcome === 'failed_permanently')
    log.warn(step, 'buyer e-mail refused by the SMTP server; not retried');
  else if (report.outcome === 'uncertain')
    log.warn(step, 'buyer e-mail outcome unknown and no message lookup: not resent');
  else log.info(step, 'buyer e-mail step');
  if (report.outcome === 'in_flight')
    await context.enqueue([
      {
        name: 'document.email-buyer',
        payload: { documentId: payload.documentId },
        startAfterSeconds: report.retryAfterSeconds ?? 1,
      },
    ]);
}
