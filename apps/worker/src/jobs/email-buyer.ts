import type { TJobPayload } from '@ecf/db';
import { sendBuyerEmail } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * E-mails the buyer a signed link to the printed representation (thin: the use-case decides and
 * records each attempt). A transient SMTP failure throws, so pg-boss retries the job with the
 * queue's backoff; the fiscal pipeline never waits for it.
 */
export async function emailBuyerJob(
  payload: TJobPayload<'document.email-buyer'>,
  context: TJobContext,
): Promise<void> {
  if (!context.buyerEmail)
    throw new Error('the worker has no buyer e-mail settings (buyerEmail not given to createWorker)');
  const report = await sendBuyerEmail({
    ...context.buyerEmail,
    database: context.database,
    documentId: payload.documentId,
    now: context.now,
  });
  const log = context.log.child({ documentId: report.documentId });
  if (report.outcome === 'failed_permanently')
    log.warn(
      { outcome: report.outcome, attempt: report.attempt },
      'buyer e-mail refused by the SMTP server; not retried',
    );
  else
    log.info(
      { outcome: report.outcome, ...(report.attempt === undefined ? {} : { attempt: report.attempt }) },
      'buyer e-mail step',
    );
}
