/** What a signing attempt reports, and what it leaves in `lastError` when it does not sign. */
import type { TTransmissionDocument } from '../persistence/index.ts';

/** Codes a signing attempt leaves in `lastError` (besides the certificate codes of AppError). */
export const SIGNING_ERROR_CODES = {
  /** No active certificate: install one; the document is signed then. */
  CERTIFICATE_NOT_ACTIVE: 'CERTIFICATE_NOT_ACTIVE',
  /** The active certificate's validity ended (or has not started): install a valid one. */
  CERTIFICATE_EXPIRED: 'CERTIFICATE_EXPIRED',
  CERTIFICATE_NOT_YET_VALID: 'CERTIFICATE_NOT_YET_VALID',
  /** The active certificate cannot be decrypted or read (service configuration). */
  SIGNING_CERTIFICATE_UNAVAILABLE: 'SIGNING_CERTIFICATE_UNAVAILABLE',
  /** The stored submission no longer validates, or is not the document's eNCF. */
  SIGNING_PAYLOAD_INVALID: 'SIGNING_PAYLOAD_INVALID',
  /** The e-CF could not be written as XML, or the signed XML failed the official XSD. */
  SIGNING_XML_INVALID: 'SIGNING_XML_INVALID',
} as const;
export type TSigningErrorCode = (typeof SIGNING_ERROR_CODES)[keyof typeof SIGNING_ERROR_CODES];

/** What `lastError` holds after a signing attempt that did not sign. */
export type TSigningError = {
  code: TSigningErrorCode;
  message: string;
  retrying: boolean;
  details?: Record<string, unknown>;
};

export type TSignQueuedDocumentResult =
  | {
      outcome: 'signed';
      documentId: string;
      securityCode: string;
      qrUrl: string;
      signatureDate: Date;
      sha256: string;
      artifactId: string;
      /** The signed XML as stored, and the document as this step left it: the next step needs no read. */
      xml: string;
      document: TTransmissionDocument;
      /** The transmission claim recorded with the signature (`claimTransmission`). */
      claimed?: { attempt: number; channel: 'ecf' };
    }
  | { outcome: 'skipped'; documentId: string; reason: 'not_found' | 'not_queued'; status?: string }
  /** A certificate problem: the document stays queued; try again later (the job retries). */
  | { outcome: 'deferred'; documentId: string; error: TSigningError }
  /** Deterministic failure: the document stays queued; retrying does not help. */
  | { outcome: 'failed'; documentId: string; error: TSigningError };
