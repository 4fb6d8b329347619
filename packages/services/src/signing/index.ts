/**
 * Signing: the first step after a 202, a queued e-CF signed with its account's certificate (or
 * left queued with the reason in `lastError` until it can be).
 */
export { signQueuedDocument } from './sign-queued-document.ts';
export {
  SIGNING_ERROR_CODES,
  type TSigningError,
  type TSigningErrorCode,
  type TSignQueuedDocumentResult,
} from './signing-results.ts';
