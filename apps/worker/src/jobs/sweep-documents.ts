import type { TJobPayload } from '@ecf/db';
import { sweepDocuments } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Every minute: enqueues the next step of documents no job is moving (the use-case says which).
 * Not retried: the next minute's sweep is the retry.
 */
export async function sweepDocumentsJob(
  _payload: TJobPayload<'maintenance.sweep-documents'>,
  context: TJobContext,
) {
  const { requeued } = await sweepDocuments({
    database: context.database,
    enqueue: context.enqueue,
    now: context.now(),
    ...(context.sweepStaleAfterSeconds === undefined
      ? {}
      : { staleAfterSeconds: context.sweepStaleAfterSeconds }),
  });
  if (requeued.length === 0) return;
  const byReason: Record<string, number> = {};
  for (const document of requeued)
    byReason[`${document.job}:${document.reason}`] =
      (byReason[`${document.job}:${document.reason}`] ?? 0) + 1;
  context.log.warn(
    {
      requeued: requeued.length,
      byReason,
      documentIds: requeued.slice(0, 20).map((document) => document.documentId),
    },
    'sweep re-enqueued documents no job was moving',
  );
}
