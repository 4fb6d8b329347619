import type { TJobPayload } from '@ecf/db';
import { pollDocumentStatus } from '@ecf/services';
import type { TJobContext } from './context.ts';
import { scheduleTransmissionStep, transmissionOptionsOf } from './transmission-step.ts';

/** Asks the tax authority once for a sent document's result and schedules the next question until it is final. */
export async function pollDocumentStatusJob(
  payload: TJobPayload<'document.poll-status'>,
  context: TJobContext,
) {
  // An acceptance enqueues the delivery to the buyer (and the buyer e-mail) in its own transaction.
  const report = await pollDocumentStatus({
    ...transmissionOptionsOf(context),
    database: context.database,
    documentId: payload.documentId,
  });
  await scheduleTransmissionStep(report, context);
}
