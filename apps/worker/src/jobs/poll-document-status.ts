import type { TJobPayload } from '@ecf/db';
import { pollDocumentStatus } from '@ecf/services';
import type { TJobContext } from './registry.ts';
import { scheduleNext, transmissionOptionsOf } from './transmit-document.ts';

/** Asks the tax authority once for a sent document's result and schedules the next question until it is final. */
export async function pollDocumentStatusJob(
  payload: TJobPayload<'document.poll-status'>,
  context: TJobContext,
) {
  // An acceptance enqueues the delivery to the buyer (and the buyer e-mail) in its own transaction.
  const report = await pollDocumentStatus(context.database, payload.documentId, {
    ...transmissionOptionsOf(context),
    ...(context.enqueue ? { enqueue: context.enqueue } : {}),
    ...(context.enqueueJobs ? { enqueueJobs: context.enqueueJobs } : {}),
  });
  await scheduleNext(report, context);
}
