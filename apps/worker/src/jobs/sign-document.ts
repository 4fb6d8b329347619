import type { TJobPayload } from '@ecf/db';
import { signQueuedDocument, transmitSignedDocument } from '@ecf/services';
import type { TJobContext } from './context.ts';
import { scheduleTransmissionStep, transmissionOptionsOf } from './transmission-step.ts';

/**
 * Signs a queued e-CF and, when the worker talks to the tax authority, sends it at once in the
 * same job (thin: the use-cases do the work). A deferral (no usable certificate yet) fails the job
 * so pg-boss retries it with backoff; a deterministic failure is recorded on the document
 * (`lastError`, event `signing_failed`) and completes the job, since retrying cannot help.
 *
 * Sending in the signing job saves a job per document (its insert, fetch and completion: three
 * transactions) and the read back of the signed XML. It stays safe: this job completes only after
 * transmission has recorded its outcome and enqueued the next step, so a crash anywhere in between
 * leaves the job to be retried (pg-boss expiry), and a retry finds the document `signed` and sends
 * it through the same claim-and-resolve use-case as `document.transmit`. Without a tax authority
 * client (tests of signing alone) the signing transaction enqueues `document.transmit` instead.
 */
export async function signDocument(payload: TJobPayload<'document.sign'>, context: TJobContext) {
  if (!context.certificateKeyring)
    throw new Error('CERTIFICATE_MASTER_KEY is not configured: the worker cannot sign documents');
  const sendsInline = context.taxauthClientFor !== undefined;
  const result = await signQueuedDocument({
    database: context.database,
    documentId: payload.documentId,
    keyring: context.certificateKeyring,
    now: context.now(),
    ...(context.xsdValidators ? { xsdValidators: context.xsdValidators } : {}),
    ...(sendsInline ? {} : { enqueue: context.enqueue }),
    // Sent at once below: the signature records the transmission claim too (one write less).
    ...(sendsInline ? { claimTransmission: true } : {}),
    ...(sendsInline && context.workerLease !== undefined
      ? { workerInstanceId: context.workerLease.instanceId() }
      : {}),
  });
  const log = context.log.child({ documentId: payload.documentId });
  switch (result.outcome) {
    case 'signed':
      log.info({ sha256: result.sha256, artifactId: result.artifactId }, 'document signed');
      if (sendsInline)
        await transmit(payload.documentId, context, {
          document: result.document,
          signedXml: result.xml,
          ...(result.claimed ? { claimed: result.claimed } : {}),
        });
      return;
    case 'skipped':
      log.info({ reason: result.reason, status: result.status }, 'nothing to sign');
      // A retry of this job after a crash between signing and sending: send now.
      if (sendsInline && result.status === 'signed') await transmit(payload.documentId, context, undefined);
      return;
    case 'deferred':
      log.warn({ code: result.error.code }, 'signing deferred; will retry');
      throw new Error(`signing deferred: ${result.error.code}`);
    case 'failed':
      log.error(
        { code: result.error.code, details: result.error.details },
        'document cannot be signed; left queued with lastError',
      );
      return;
  }
}

async function transmit(
  documentId: string,
  context: TJobContext,
  signed: Parameters<typeof transmitSignedDocument>[0]['signed'],
): Promise<void> {
  const report = await transmitSignedDocument({
    ...transmissionOptionsOf(context),
    database: context.database,
    documentId,
    ...(signed === undefined ? {} : { signed }),
  });
  await scheduleTransmissionStep(report, context);
}
