/**
 * Maintenance: the sweep that requeues documents no live job is moving (and its fast half for the
 * documents whose job's process died), and the purge of expired rows.
 */
export {
  DEFAULT_SWEEP_STALE_SECONDS,
  nextContingencyAttemptAt,
  SWEEP_EVENT_TYPE,
  sweepDocuments,
  type TSweepDocumentsOptions,
  type TSweepReason,
  type TSweptDocument,
} from './sweep-documents.ts';
export { purgeExpiredRecords } from './purge-expired-records.ts';
export { requeueLostDocuments, type TRequeueLostDocumentsOptions } from './requeue-lost-documents.ts';
export { registerWorkerInstance } from './register-worker-instance.ts';
export { renewWorkerInstance } from './renew-worker-instance.ts';
