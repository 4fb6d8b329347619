import type { TJobPayload } from '@ecf/db';
import { advanceCertificationRun } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * One step of a certification run (thin: the use-case claims the run's generation, issues and
 * settles its documents, and hands the chain on itself).
 */
export async function advanceCertificationRunJob(
  payload: TJobPayload<'certification.advance'>,
  context: TJobContext,
): Promise<void> {
  if (!context.xsdValidators)
    throw new Error('the worker has no XSD validators (needed to issue certification documents)');
  const report = await advanceCertificationRun({
    database: context.database,
    runId: payload.runId,
    generation: payload.generation,
    enqueue: context.enqueue,
    xsd: context.xsdValidators,
    now: context.now,
  });
  if (report.outcome !== 'stale')
    context.log.info(
      { runId: report.runId, outcome: report.outcome, issued: report.issued, settled: report.settled },
      'certification run step',
    );
}
