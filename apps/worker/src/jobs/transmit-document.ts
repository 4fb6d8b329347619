import type { TJobPayload } from '@ecf/db';
import { transmitSignedDocument } from '@ecf/services';
import type { TJobContext } from './context.ts';
import { scheduleTransmissionStep, transmissionOptionsOf } from './transmission-step.ts';

/**
 * Sends a signed e-CF to the tax authority (thin: the use-case decides, this schedules). The
 * follow-up job is enqueued before this job completes, so a crash in between re-runs this job
 * (pg-boss retry) and the use-case, idempotent, reaches the same decision without sending twice.
 */
export async function transmitDocument(payload: TJobPayload<'document.transmit'>, context: TJobContext) {
  const report = await transmitSignedDocument({
    ...transmissionOptionsOf(context),
    database: context.database,
    documentId: payload.documentId,
  });
  await scheduleTransmissionStep(report, context);
}
