/** Maintenance: the sweep that requeues documents no job is moving, and the purge of expired rows. */
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
