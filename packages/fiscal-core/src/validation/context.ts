/**
 * What validation needs from outside the document. fiscal-core does no I/O: the caller passes the
 * clock, the account and look-up functions (backed by its database or the taxpayer registry).
 * Look-ups may answer synchronously or with a promise.
 */
export type TMaybePromise<T> = T | Promise<T>;

/** The authenticated account: fills placeholders and missing issuer data, and is checked against the issuer. */
export type TAccountData = {
  readonly rnc: string;
  readonly legalName: string;
  readonly tradeName?: string | undefined;
  readonly address?: string | undefined;
  /** Up to 3 phones `NNN-NNN-NNNN`, used when the simplified contract sends none. */
  readonly phones?: readonly string[] | undefined;
  readonly email?: string | undefined;
  /** Deferred-send authorization registered on the account (emits `IndicadorEnvioDiferido` 1). */
  readonly deferredSendAuthorized: boolean;
  /** Days from the issue date that `{{FECHA_LIMITE_PAGO}}` adds; without it that placeholder stays unresolved. */
  readonly paymentTermDays?: number | undefined;
};

/** Status of an e-CF this account issued, as the service stores it. */
export type TReferencedDocumentStatus =
  | 'queued_for_signing'
  | 'accepted'
  | 'accepted_conditional'
  | 'rejected'
  | 'cancelled'
  | 'transmission_failed'
  | 'contingency'
  | (string & {});

/** An e-CF of the account that a note references (rule 20). */
export type TReferencedDocument = {
  readonly status: TReferencedDocumentStatus;
  /** Whether an accepted ANECF annulled it. */
  readonly annulled?: boolean | undefined;
  /** `RNCComprador` (or `IdentificadorExtranjero`) of the original, null when it had none. */
  readonly buyerId: string | null;
  /** `FechaEmision` of the original, `DD-MM-YYYY`. */
  readonly issueDate: string;
  /** `MontoTotal` of the original, decimal text. */
  readonly totalAmount: string;
  /** Sum of `MontoTotal` of credit notes (E34) already issued on it, decimal text, excluding this one. */
  readonly creditNotesTotal: string;
};

/** A registered eNCF range (optional registration, `POST secuencias`). */
export type TRegisteredRange = { readonly sequenceExpirationDate: string };

/** Tax authority registry entry of a taxpayer (rule 18). */
export type TTaxpayerRecord = { readonly status: string };

/** The outside data `validateSubmission` needs. */
export type TValidationContext = {
  /** Current time; all "today" and "future" checks use it, in Dominican Republic time. */
  readonly now: Date;
  readonly account: TAccountData;
  /** The account's e-CF with that eNCF, or null when the service never issued it (clarification 16). */
  readonly lookupReferencedDocument?:
    ((encf: string) => TMaybePromise<TReferencedDocument | null>) | undefined;
  /** The registered range containing the eNCF, or null when none is registered. */
  readonly findRegisteredRange?: ((encf: string) => TMaybePromise<TRegisteredRange | null>) | undefined;
  /** Registry record of an RNC or cedula, null when absent; omit the function when the registry is not loaded. */
  readonly lookupTaxpayer?: ((rnc: string) => TMaybePromise<TTaxpayerRecord | null>) | undefined;
};
