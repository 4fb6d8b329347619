import type { TJobPayload } from '@ecf/db';
import { signQueuedDocument } from '@ecf/services';
import type { TJobContext } from './registry.ts';

/**
 * Signs a queued e-CF (thin: the use-case does the work). A deferral (no usable certificate yet)
 * fails the job so pg-boss retries it with backoff; a deterministic failure is recorded on the
 * document (`lastError`, event `signing_failed`) and completes the job, since retrying cannot help.
 */
export async function signDocument(payload: TJobPayload<'document.sign'>, context: TJobContext) {
  if (!context.certificateKeyring) throw new Error('CERTIFICATE_MASTER_KEY is not configured: the worker cannot sign documents');
  const result = await signQueuedDocument(context.database, payload.documentId, {
    keyring: context.certificateKeyring,
    now: context.now(),
    ...(context.xsdValidators ? { xsdValidators: context.xsdValidators } : {}),
    ...(context.enqueue ? { enqueue: context.enqueue } : {}),
  });
  const log = context.log.child({ documentId: payload.documentId });
  switch (result.outcome) {
    case 'signed':
      log.info({ sha256: result.sha256, artifactId: result.artifactId }, 'document signed');
      return;
    case 'skipped':
      log.info({ reason: result.reason, status: result.status }, 'nothing to sign');
      return;
    case 'deferred':
      log.warn({ code: result.error.code }, 'signing deferred; will retry');
      throw new Error(`signing deferred: ${result.error.code}`);
    case 'failed':
      log.error({ code: result.error.code, details: result.error.details }, 'document cannot be signed; left queued with lastError');
      return;
  }
}
