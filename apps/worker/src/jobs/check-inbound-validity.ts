import type { TJobPayload } from '@ecf/db';
import { checkReceivedValidity } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Asks Consulta Estado whether a received e-CF is valid (with the receiving tenant's token) and
 * stores the answer. Transient failures throw: pg-boss retries the job with its backoff. An e-CF
 * still `in_process` at the tax authority is asked about again later.
 */
export async function checkInboundValidityJob(
  payload: TJobPayload<'inbound.check-validity'>,
  context: TJobContext,
) {
  if (!context.taxauthClientFor)
    throw new Error('the worker has no tax authority client (taxauth options not given to createWorker)');
  const result = await checkReceivedValidity({
    database: context.database,
    inboundDocumentId: payload.inboundDocumentId,
    clientFor: context.taxauthClientFor,
    ...(context.certificateKeyring ? { keyring: context.certificateKeyring } : {}),
    now: context.now,
  });
  context.log.info(
    { inboundDocumentId: payload.inboundDocumentId, outcome: result.outcome },
    'received e-CF validity checked',
  );
  if (result.recheckAfterSeconds !== undefined)
    await context.enqueue([
      {
        name: 'inbound.check-validity',
        payload: { inboundDocumentId: payload.inboundDocumentId },
        startAfterSeconds: result.recheckAfterSeconds,
      },
    ]);
}
