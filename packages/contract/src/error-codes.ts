/**
 * THE error codes of the service: each code's HTTP status (one table), an English message template
 * (what the code means, in the words the API's `error.message` starts from), and, with
 * `route-errors.ts`, the operations that may answer it. The services throw these codes
 * (`AppError`), the API answers them as `ErrorResponse`, the OpenAPI document declares them per
 * operation (`x-error-codes`), the SDK's `EcfApiError.code` is one of them, and the portal's Spanish
 * catalogue keys on them (`apps/web/lib/catalogue.ts`, typed by `TErrorCode`).
 */

export const ERROR_STATUS = {
  /**
   * The request body is not acceptable JSON, on every JSON route alike (`details.reason`): `empty`,
   * `syntax`, `invalid_utf8` (with the byte `offset`; bytes are never replaced with U+FFFD),
   * `duplicate_key` (a member name repeated in one object, with its `path`), `too_deep` (nesting
   * over 256 levels); `body_missing` when a route needs a body and none was sent.
   */
  INVALID_JSON: 400,
  /**
   * The request's parameters, query or body do not match the route's contract; or the request
   * itself is refused before any route (`details.reason`): `malformed_http` (with llhttp's
   * `parserError`), `invalid_url_encoding`, `path_parameter_too_long`, `host_header_missing`,
   * `expectation_not_supported`, `content_length_mismatch`, `method_not_supported` (CONNECT);
   * `unsupported_character` (U+0000 or a lone surrogate in a body that is stored, with `path`, `codePoint`).
   */
  INVALID_REQUEST: 400,
  /**
   * The body's Content-Type is not one the route accepts, or declares a charset other than UTF-8
   * (`details.reason` `charset`); 400 rather than 415: the spec's status set.
   */
  UNSUPPORTED_CONTENT_TYPE: 400,
  /**
   * The body exceeds its route's size limit, `details.limitBytes` (400 rather than 413: the spec's
   * status set). With `Expect: 100-continue` a declared `Content-Length` over it is answered before
   * the body is sent; otherwise the body is read to its end (bounded) and thrown away first, so the
   * client can always read this answer.
   */
  BODY_TOO_LARGE: 400,
  /**
   * The request line and headers exceed Node's 16 KiB (`details.limitBytes`): 400 rather than 431,
   * the spec's status set. Answered by the HTTP layer with `connection: close`.
   */
  REQUEST_HEADERS_TOO_LARGE: 400,
  /** The request (headers or body) was not received in time: 400 rather than 408, the spec's status set. */
  REQUEST_TIMEOUT: 400,
  /** A `documentReference` that is neither a documentId (UUID) nor an eNCF (`E` + 12 digits). */
  INVALID_DOCUMENT_REFERENCE: 400,
  /** Bad filter, limit or cursor on `GET /{environment}/documentos-ecf` (a cursor of another filter set included). */
  INVALID_ISSUED_DOCUMENTS_QUERY: 400,
  /** No `X-API-KEY` header on a private route. */
  API_KEY_MISSING: 401,
  /** The `X-API-KEY` is unknown or revoked. */
  API_KEY_INVALID: 401,
  /** The key lacks the route's scope, or belongs to another environment (`details.reason`). */
  INSUFFICIENT_SCOPE: 403,
  /** No route matches the method and path: an unknown environment segment, or a contract route not built yet. */
  ROUTE_NOT_FOUND: 404,
  /** A tenant-scoped resource does not exist for this tenant (other tenants' ids included). */
  NOT_FOUND: 404,
  /** The submission's eNCF already belongs to a document with other content (`details.conflicts[]`). */
  ENCF_CONFLICT: 409,
  /** The document has no signed XML yet (XML and PDF downloads). */
  DOCUMENT_NOT_SIGNED: 409,
  /** Signed, but the tax authority has not answered yet (no TrackID): no printed representation. */
  RI_AWAITING_TAXAUTH_RESPONSE: 409,
  /** The tax authority rejected the document (or the RFCE summary of a consumer invoice): no printed representation. */
  RI_NOT_DELIVERABLE_REJECTED: 409,
  /** The document is `transmission_failed`: no printed representation. */
  RI_NOT_DELIVERABLE_NOT_TRANSMITTED: 409,
  /** The document was cancelled by an accepted ANECF: no printed representation. */
  RI_NOT_DELIVERABLE_CANCELLED: 409,
  /** The submission failed validation (fields in `errors`, see SubmitResponse); nothing was stored. */
  VALIDATION_FAILED: 422,
  /** `eCF` (emission, the issued list) before the account's production authorization is active. */
  PRODUCTION_NOT_ACTIVE: 423,
  /** The API key's rate limit is used up; `Retry-After` says when to retry. */
  RATE_LIMIT_EXCEEDED: 429,
  /** The service cannot serve (for example the database is unreachable, or it is shutting down: `details.reason` `shutting_down`). */
  SERVICE_UNAVAILABLE: 503,
  /** Anything unexpected; the answer reveals nothing but the correlationId. */
  INTERNAL_ERROR: 500,
  /** The tenant has no active signing certificate (install one with `certificate upload`). */
  CERTIFICATE_NOT_ACTIVE: 409,
  /** The PKCS#12 integrity check or key decryption failed with the given password. */
  CERTIFICATE_PASSWORD_INVALID: 422,
  /** The file is not a readable PKCS#12 certificate, or its key is not RSA (`details.reason`). */
  CERTIFICATE_FILE_INVALID: 422,
  /** The PKCS#12 file holds no private key. */
  CERTIFICATE_PRIVATE_KEY_MISSING: 422,
  /** The PKCS#12 file holds no certificate belonging to its private key. */
  CERTIFICATE_KEY_PAIR_NOT_FOUND: 422,
  /** The certificate subject carries no holder id (`serialNumber` with the RNC, cédula or passport). */
  CERTIFICATE_HOLDER_ID_MISSING: 422,
  /**
   * The certificate cannot sign: its key usage includes neither digitalSignature nor
   * nonRepudiation, or it has no key-usage extension (`details.keyUsage`, what it has).
   */
  CERTIFICATE_KEY_USAGE_INVALID: 422,
  /** The certificate's validity ended before now. */
  CERTIFICATE_EXPIRED: 422,
  /** The certificate's validity starts after now. */
  CERTIFICATE_NOT_YET_VALID: 422,
  /**
   * A stored certificate cannot be decrypted: the master key that encrypted it (its `keyId`) is
   * not in the configured keyring, or the ciphertext fails authentication. An operator problem.
   */
  CERTIFICATE_DECRYPTION_FAILED: 500,
  /**
   * Receiver-delivery reconciliation of a delivery that is not `uncertain` (`details.status`: its
   * current status, null when the document has no receiver delivery). Only `uncertain` is reconciled.
   */
  RECEIVER_DELIVERY_NOT_UNCERTAIN: 409,
  /**
   * The receiver delivery was already reconciled with another request (`details.reason`:
   * `outcome_differs`, `evidence_differs` or `note_differs`; `details.reconciliation` the fixed one).
   */
  RECEIVER_DELIVERY_OUTCOME_CONFLICT: 409,
  /**
   * The evidence does not fit the outcome (`details.reason`): `evidence_required` (`sent` without
   * `evidence.arecfXml`), `evidence_not_applicable` (evidence with `dispatch_failed`), or the ARECF
   * fails a check (`signature_invalid`, `xsd_invalid`, `encf_mismatch`, `issuer_mismatch`,
   * `buyer_mismatch`, `not_received`, `signer_*`), with `details.message`.
   */
  RECEIVER_DELIVERY_EVIDENCE_INVALID: 409,
  /**
   * The PDF download's `Accept` lists neither `application/pdf`, `application/` + wildcard nor the
   * full wildcard (clarification 17; 400 rather than 406: the spec's status set). `details.accepted` lists what is served.
   */
  NOT_ACCEPTABLE: 400,
  /** Buyer PDF link (`GET /ri/{token}`, plain text + `X-Error-Code`): malformed, tampered, or naming no document. */
  RI_LINK_INVALID: 404,
  /** Buyer PDF link: the document is not accepted or accepted-conditional (any more). */
  RI_NOT_DELIVERABLE: 404,
  /** Buyer PDF link: genuine but more than 30 days after sending. */
  RI_LINK_EXPIRED: 410,
  /**
   * Portal sign-in refused: the e-mail and password do not match an account. The same answer, in
   * about the same time, whether or not the e-mail has an account.
   */
  INVALID_CREDENTIALS: 401,
  /**
   * A portal sign-in (or password-reset request) refused before any check (`details.reason`):
   * `account` (5 or more failed sign-ins with this e-mail, each further failure doubling the wait;
   * the same for an e-mail without an account) or `ip` (too many attempts from this address).
   * `details.retryAfterSeconds`, `Retry-After`.
   */
  TOO_MANY_ATTEMPTS: 429,
  /** No valid portal session: signed out, revoked (sign-out everywhere), expired, or the user is gone. */
  SESSION_INVALID: 401,
  /** The portal user's role (or support's read-only access) lacks the capability (`details.capability`). */
  FORBIDDEN: 403,
  /** A portal request for a tenant's data while the session has no tenant (none chosen, or the membership was removed). */
  NO_ACTIVE_TENANT: 403,
  /** An invitation link that names no invitation, or one that was revoked or replaced. */
  INVITATION_INVALID: 404,
  /** An invitation link past its expiry (`details.expiredAt`). */
  INVITATION_EXPIRED: 410,
  /** An invitation that was already accepted (links are single use). */
  INVITATION_ALREADY_ACCEPTED: 409,
  /** The invitation is for another e-mail than the signed-in user's (`details.invitedEmail` is not given). */
  INVITATION_EMAIL_MISMATCH: 403,
  /** A new account cannot be created for an address that has one: sign in to accept (`details.reason: account_exists`). */
  ACCOUNT_EXISTS: 409,
  /** The address already belongs to a member of the tenant. */
  ALREADY_MEMBER: 409,
  /** The tenant's only owner cannot be removed or given another role. */
  LAST_OWNER: 409,
  /** A password reset link that names no reset, or one already used. */
  PASSWORD_RESET_INVALID: 404,
  /** A password reset link past its expiry. */
  PASSWORD_RESET_EXPIRED: 410,
  /** Replay of a webhook delivery that is not `failed`, or whose endpoint is not active (`details.status`, `details.endpointStatus`). */
  WEBHOOK_REPLAY_NOT_ALLOWED: 409,
  /** The webhook endpoint was retired (DELETE): it cannot be changed, rotated, tested or replayed any more. */
  WEBHOOK_ENDPOINT_RETIRED: 409,
  /** A secret rotation's overlap window is still open (`details.previousSecretExpiresAt`): rotate again after it. */
  WEBHOOK_ROTATION_IN_PROGRESS: 409,
  /** The ANECF does not build or does not meet its XSD (`details.errors[]` with `path`, `code`, `message`). */
  ANECF_INVALID: 400,
  /** Annulments are eCF operations tested in TesteCF: none in CerteCF. */
  ANECF_NOT_AVAILABLE_IN_CERTECF: 400,
  /**
   * Documents of the ranges arrived or could have arrived at the tax authority or the buyer
   * (`details.conflicts[]`: `encf`, `documentId`, `status`, `reason`). 400; 409 (status override)
   * when one appeared while the annulment reserved the ranges (`details.documentId`).
   */
  ANECF_DOCUMENT_CONFLICT: 400,
  /** `Idempotency-Key` missing (or empty) to send an ANECF. */
  ANECF_IDEMPOTENCY_KEY_REQUIRED: 428,
  /** The same `Idempotency-Key` with another request (`details.annulmentId`). */
  ANECF_IDEMPOTENCY_CONFLICT: 409,
  /** A range overlaps one another annulment holds (`details.annulmentId`, `details.range`). */
  ANECF_RANGE_RESERVED: 409,
  /** Reconciliation of an annulment that is not `uncertain` (`details.status`). */
  ANECF_NOT_UNCERTAIN: 409,
  /** Reconciliation again with another outcome or other evidence (`details.outcome`). */
  ANECF_RECONCILIATION_CONFLICT: 409,
  /** A sequence range that is not one type and series, or reversed (`details.reason`, `details.path`). */
  SEQUENCE_RANGE_INVALID: 400,
  /** The range overlaps a registered range of the same type (`details.rangeId`, `details.from`, `details.to`). */
  SEQUENCE_RANGE_OVERLAP: 409,
  /** Emission of an eNCF inside a range reserved or annulled by an annulment (`details.encf`, `details.annulmentId`, `details.state`). */
  ENCF_ANNULLED: 409,
  /** Bad filter, limit or cursor on the received e-CF or received ACECF lists (`details.issues[]`). */
  INVALID_RECEIVED_DOCUMENTS_QUERY: 400,
  /** No received e-CF with this id in this account and environment (an ACECF's id included). */
  RECEIVED_DOCUMENT_NOT_FOUND: 404,
  /** A received e-CF without a kept copy (refused before its signature verified). */
  RECEIVED_DOCUMENT_XML_NOT_AVAILABLE: 404,
  /** No received ACECF with this id in this account and environment (a received e-CF's id included). */
  RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND: 404,
  /** A received ACECF without a kept copy. */
  RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE: 404,
  /** A stored received copy (e-CF or ACECF) fails its SHA-256 check: never served. */
  RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED: 500,
  /** Another decision was already sent for this received e-CF (`details.decision`). */
  COMMERCIAL_APPROVAL_DECISION_CONFLICT: 409,
  /** `approvalDate` not a real date, before the e-CF's `FechaEmision`, or later than now + 5 min (`details.reason`). */
  COMMERCIAL_APPROVAL_DATE_INVALID: 422,
  /** The ACECF's submission to the tax authority has no known outcome (409; 502 when it happened in this request). */
  ACECF_TAXAUTH_SUBMISSION_UNCERTAIN: 409,
  /** `accept` of an e-CF Consulta Estado reported rejected or not found (`details.taxauthValidity`). */
  RECEIVED_ECF_NOT_VALID_IN_TAXAUTH: 409,
  /** The tax authority rejected the ACECF (`details.taxauthSubmission`); correct it and send again. */
  ACECF_TAXAUTH_REJECTED: 422,
  /** `targetUrl` given while the issuer is in the directory (`details.directoryTargetUrl`). */
  ACECF_TARGET_URL_NOT_ALLOWED: 422,
  /** The issuer did not receive the ACECF (`retry_scheduled`, `dispatch_failed` or `uncertain`): the body says which. */
  ACECF_DISPATCH_NOT_RECEIVED: 502,
  /** No active certificate to sign the ACECF or to authenticate with the tax authority. */
  ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE: 503,
  /** The tax authority's authentication failed while looking up the directory. */
  DIRECTORY_TAXAUTH_AUTH_FAILED: 503,
  /** No tax authority token to query the directory. */
  DIRECTORY_ACCESS_TOKEN_MISSING: 503,
  /** The ACECF could not be signed. */
  ACECF_SIGNING_FAILED: 503,
  /** Reconciliation of a commercial approval whose dispatch is not `uncertain` (`details.status`), or again with another outcome. */
  COMMERCIAL_APPROVAL_NOT_UNCERTAIN: 409,
  /**
   * Certification (docs/certification.md): the body of a certification route does not match its
   * contract (`details.field`, `details.reason`): not exactly one of `workbookBase64`, `set` and
   * `taxauthModel`; `taxauthModel` not a boolean; `workbookBase64` not base64 or over 700 KB; an
   * unknown property.
   */
  INVALID_CERTIFICATION_REQUEST: 400,
  /** `POST certificacion/reiniciar`: `part` missing or not `data`/`simulation`, or other properties sent. */
  CERTIFICATION_PART_INVALID: 400,
  /** `POST certificacion/aprobaciones-comerciales` without `workbookBase64` (or with other properties). */
  COMMERCIAL_APPROVAL_SET_REQUIRED: 400,
  /**
   * `taxauthModel` before the tax authority accepted the commercial approvals (the model set is for
   * the simulation; the data tests need the workbook the tax authority issued for the account).
   */
  CERTIFICATION_OWN_SET_REQUIRED: 409,
  /** Some eNCF of the set was already sent by this account in CerteCF: a sent eNCF is used up for good (`details.encfs`). */
  CERTIFICATION_SET_ALREADY_USED: 409,
  /** Commercial approval tests before the data tests were accepted (`details.step`). */
  CERTIFICATION_DATA_TESTS_PENDING: 409,
  /** A commercial approvals send of the account is still queued or running (`details.sendId`). */
  COMMERCIAL_APPROVALS_IN_PROGRESS: 409,
  /** A certification operation outside CerteCF (`details.environment`). */
  CERTIFICATION_ENVIRONMENT_REQUIRED: 409,
  /** The account's certification is run by its Partner through the Partner API. */
  CERTIFICATION_MANAGED_BY_PARTNER: 409,
  /** A run of the account's case is still queued or running (`details.runId`): wait, or restart its part. */
  CERTIFICATION_RUN_IN_PROGRESS: 409,
  /** The part asked for is not where the case stands (`details.step`, `details.part`): the data tests come first. */
  CERTIFICATION_SIMULATION_NOT_READY: 409,
  /** A Partner creates a case while the account has an open one with another set (`details.caseId`): close it first. */
  CERTIFICATION_CASE_ALREADY_OPEN: 409,
  /** The application or sworn declaration XML to sign is not signable (`details.reason`: `too_large`, `not_signable`). */
  CERTIFICATION_XML_INVALID: 422,
  /** The temporary link to the embedded certification page expired (`details.expiredAt`). */
  CERTIFICATION_EMBED_EXPIRED: 410,
  /** `Idempotency-Key` missing where a Partner route requires it (certification runs and commercial approval tests). */
  IDEMPOTENCY_KEY_REQUIRED: 428,
  /** The account's certification is approved: no run, restart or approvals send remains to do. */
  CERTIFICATION_APPROVED: 409,
  /** The same `Idempotency-Key` with other parameters (Partner routes and certification runs). */
  IDEMPOTENCY_CONFLICT: 409,
  /** An attestation or activation before the steps it follows (`details.missingSteps`). */
  CERTIFICATION_PREREQUISITES_MISSING: 409,
  /** Production activation asked before the case is approved (`details.step`). */
  CERTIFICATION_NOT_APPROVED: 409,
  /** `reenviar` of a document the tax authority already resolved, or that is not a certification receipt (`details.status`). */
  CERTIFICATION_DOCUMENT_NOT_RESENDABLE: 409,
  /**
   * The set cannot be imported or one of its rows does not validate: `details.errors[]` with
   * `sheet`, `row`, `column` (or `path`), `code`, `message`.
   */
  CERTIFICATION_SET_INVALID: 422,
  /** The set is for another RNC than the account's (`details.expectedRnc`, `details.errors[]`). */
  CERTIFICATION_SET_ISSUER_MISMATCH: 422,
  /** The commercial approvals workbook cannot be read (`details.errors[]` with sheet, row, column, code). */
  COMMERCIAL_APPROVAL_SET_INVALID: 422,
  /** The commercial approvals workbook answers documents issued to another buyer than the account (`details.expectedRnc`). */
  COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER: 422,
  /**
   * Reception routes of a tenant that declared authentication: no `Authorization: bearer <token>`
   * (`details.reason` `token_missing`), or a token we did not issue or that expired (`token_invalid`).
   */
  RECEPTION_AUTHENTICATION_REQUIRED: 401,
  /** No `X-PARTNER-KEY` header on a Partner route. */
  PARTNER_KEY_MISSING: 401,
  /** The `X-PARTNER-KEY` is unknown or revoked. */
  PARTNER_KEY_INVALID: 401,
  /**
   * A Partner request's body, query, header or path identifier is invalid: an unknown property,
   * a wrong type, a text over its limit, an identifier that is not a UUID (`details.path` of the
   * first problem, `details.issues[]` with every `{ path, code, message }`).
   */
  INVALID_PARTNER_PAYLOAD: 400,
  /** `browserOrigin` is not an exact HTTPS origin (`https://host[:port]`, no path, query or fragment). */
  INVALID_BROWSER_ORIGIN: 400,
  /** `browserOrigin` is not among the Partner's registered browser origins. */
  BROWSER_ORIGIN_NOT_ALLOWED: 422,
  /** eCF emission without a paid Partner plan, or overdue after the grace period (`details.billingUrl`). */
  PAYMENT_REQUIRED: 402,
  /** The Partner is suspended: its keys and upload sessions stop working. */
  PARTNER_INACTIVE: 403,
  /** No fiscal account with this id for this Partner (another Partner's included: never a leak). */
  FISCAL_ACCOUNT_NOT_FOUND: 404,
  /** The RNC belongs to an account of another Partner or to a direct account. */
  RNC_NOT_AVAILABLE: 409,
  /** The `externalTenantId` is linked to an account with another RNC (`details.fiscalAccountId`, `details.rnc`). */
  ACCOUNT_LINK_CONFLICT: 409,
  /** A profile change that names another RNC: the RNC of a certified account cannot change. */
  RNC_CHANGE_REQUIRES_RECERTIFICATION: 409,
  /** A production activation that the account's production state does not allow (`details.productionState`). */
  PRODUCTION_STATE_CONFLICT: 409,
  /** A new account's RNC is not in the tax authority's taxpayer registry. */
  RNC_NOT_IN_TAXAUTH_REGISTRY: 422,
  /** A new account's RNC is in the registry but not ACTIVE (`details.status` as the registry writes it). */
  RNC_NOT_ACTIVE_IN_TAXAUTH: 422,
  /**
   * The Partner's monthly quota of accepted e-CF is used up across all its accounts
   * (`details.plan`, `details.quota`, `details.used`, `details.month`).
   */
  PLAN_LIMIT_EXCEEDED: 429,
  /**
   * The certificate upload was refused before any attempt: no `Authorization: Upload <uploadToken>`,
   * a token we did not issue, or a session already completed (`details.reason`).
   */
  UPLOAD_SESSION_INVALID: 401,
  /** The upload session is past its expiry (`details.expiredAt`). */
  UPLOAD_SESSION_EXPIRED: 410,
  /** The upload session's five attempts are used up: ask for a new session. */
  UPLOAD_SESSION_EXHAUSTED: 409,
  /** The browser origin of the upload is not the session's (`Origin` header, CORS). */
  UPLOAD_ORIGIN_MISMATCH: 403,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

/** What each code means, in English: the template of its `error.message` (the message adds the facts). */
export const ERROR_MESSAGES = {
  INVALID_JSON: 'The request body is not acceptable JSON, on every JSON route alike (`details.reason`).',
  INVALID_REQUEST: "The request's parameters, query or body do not match the route's contract.",
  UNSUPPORTED_CONTENT_TYPE:
    "The body's Content-Type is not one the route accepts, or declares a charset other than UTF-8 (`details.reason` `charset`).",
  BODY_TOO_LARGE:
    "The body exceeds its route's size limit, `details.limitBytes` (400 rather than 413: the spec's status set).",
  REQUEST_HEADERS_TOO_LARGE: "The request line and headers exceed Node's 16 KiB (`details.limitBytes`).",
  REQUEST_TIMEOUT: 'The request (headers or body) was not received in time.',
  INVALID_DOCUMENT_REFERENCE:
    'A `documentReference` that is neither a documentId (UUID) nor an eNCF (`E` + 12 digits).',
  INVALID_ISSUED_DOCUMENTS_QUERY:
    'Bad filter, limit or cursor on `GET /{environment}/documentos-ecf` (a cursor of another filter set included).',
  API_KEY_MISSING: 'No `X-API-KEY` header on a private route.',
  API_KEY_INVALID: 'The `X-API-KEY` is unknown or revoked.',
  INSUFFICIENT_SCOPE:
    "The key lacks the route's scope, or belongs to another environment (`details.reason`).",
  ROUTE_NOT_FOUND: 'No route matches the method and path.',
  NOT_FOUND: "A tenant-scoped resource does not exist for this tenant (other tenants' ids included).",
  ENCF_CONFLICT:
    "The submission's eNCF already belongs to a document with other content (`details.conflicts[]`).",
  DOCUMENT_NOT_SIGNED: 'The document has no signed XML yet (XML and PDF downloads).',
  RI_AWAITING_TAXAUTH_RESPONSE: 'Signed, but the tax authority has not answered yet (no TrackID).',
  RI_NOT_DELIVERABLE_REJECTED:
    'The tax authority rejected the document (or the RFCE summary of a consumer invoice).',
  RI_NOT_DELIVERABLE_NOT_TRANSMITTED: 'The document is `transmission_failed`.',
  RI_NOT_DELIVERABLE_CANCELLED: 'The document was cancelled by an accepted ANECF.',
  VALIDATION_FAILED: 'The submission failed validation (fields in `errors`, see SubmitResponse).',
  PRODUCTION_NOT_ACTIVE:
    "`eCF` (emission, the issued list) before the account's production authorization is active.",
  RATE_LIMIT_EXCEEDED: "The API key's rate limit is used up.",
  SERVICE_UNAVAILABLE:
    'The service cannot serve (for example the database is unreachable, or it is shutting down: `details.reason` `shutting_down`).',
  INTERNAL_ERROR: 'Anything unexpected.',
  CERTIFICATE_NOT_ACTIVE:
    'The tenant has no active signing certificate (install one with `certificate upload`).',
  CERTIFICATE_PASSWORD_INVALID:
    'The PKCS#12 integrity check or key decryption failed with the given password.',
  CERTIFICATE_FILE_INVALID:
    'The file is not a readable PKCS#12 certificate, or its key is not RSA (`details.reason`).',
  CERTIFICATE_PRIVATE_KEY_MISSING: 'The PKCS#12 file holds no private key.',
  CERTIFICATE_KEY_PAIR_NOT_FOUND: 'The PKCS#12 file holds no certificate belonging to its private key.',
  CERTIFICATE_HOLDER_ID_MISSING:
    'The certificate subject carries no holder id (`serialNumber` with the RNC, cédula or passport).',
  CERTIFICATE_KEY_USAGE_INVALID: 'The certificate cannot sign.',
  CERTIFICATE_EXPIRED: "The certificate's validity ended before now.",
  CERTIFICATE_NOT_YET_VALID: "The certificate's validity starts after now.",
  CERTIFICATE_DECRYPTION_FAILED: 'A stored certificate cannot be decrypted.',
  RECEIVER_DELIVERY_NOT_UNCERTAIN:
    'Receiver-delivery reconciliation of a delivery that is not `uncertain` (`details.status`: its current status, null when the document has no receiver delivery).',
  RECEIVER_DELIVERY_OUTCOME_CONFLICT:
    'The receiver delivery was already reconciled with another request (`details.reason`: `outcome_differs`, `evidence_differs` or `note_differs`; `details.reconciliation` the fixed one).',
  RECEIVER_DELIVERY_EVIDENCE_INVALID: 'The evidence does not fit the outcome (`details.reason`).',
  NOT_ACCEPTABLE:
    "The PDF download's `Accept` lists neither `application/pdf`, `application/` + wildcard nor the full wildcard (clarification 17; 400 rather than 406: the spec's status set).",
  RI_LINK_INVALID: 'Buyer PDF link (`GET /ri/{token}`, plain text + `X-Error-Code`).',
  RI_NOT_DELIVERABLE: 'Buyer PDF link.',
  RI_LINK_EXPIRED: 'Buyer PDF link.',
  INVALID_CREDENTIALS: 'Portal sign-in refused.',
  TOO_MANY_ATTEMPTS:
    'A portal sign-in (or password-reset request) refused before any check (`details.reason`).',
  SESSION_INVALID: 'No valid portal session.',
  FORBIDDEN:
    "The portal user's role (or support's read-only access) lacks the capability (`details.capability`).",
  NO_ACTIVE_TENANT:
    "A portal request for a tenant's data while the session has no tenant (none chosen, or the membership was removed).",
  INVITATION_INVALID: 'An invitation link that names no invitation, or one that was revoked or replaced.',
  INVITATION_EXPIRED: 'An invitation link past its expiry (`details.expiredAt`).',
  INVITATION_ALREADY_ACCEPTED: 'An invitation that was already accepted (links are single use).',
  INVITATION_EMAIL_MISMATCH:
    "The invitation is for another e-mail than the signed-in user's (`details.invitedEmail` is not given).",
  ACCOUNT_EXISTS: 'A new account cannot be created for an address that has one.',
  ALREADY_MEMBER: 'The address already belongs to a member of the tenant.',
  LAST_OWNER: "The tenant's only owner cannot be removed or given another role.",
  PASSWORD_RESET_INVALID: 'A password reset link that names no reset, or one already used.',
  PASSWORD_RESET_EXPIRED: 'A password reset link past its expiry.',
  WEBHOOK_REPLAY_NOT_ALLOWED:
    'Replay of a webhook delivery that is not `failed`, or whose endpoint is not active (`details.status`, `details.endpointStatus`).',
  WEBHOOK_ENDPOINT_RETIRED: 'The webhook endpoint was retired (DELETE).',
  WEBHOOK_ROTATION_IN_PROGRESS:
    "A secret rotation's overlap window is still open (`details.previousSecretExpiresAt`).",
  ANECF_INVALID:
    'The ANECF does not build or does not meet its XSD (`details.errors[]` with `path`, `code`, `message`).',
  ANECF_NOT_AVAILABLE_IN_CERTECF: 'Annulments are eCF operations tested in TesteCF.',
  ANECF_DOCUMENT_CONFLICT:
    'Documents of the ranges arrived or could have arrived at the tax authority or the buyer (`details.conflicts[]`: `encf`, `documentId`, `status`, `reason`).',
  ANECF_IDEMPOTENCY_KEY_REQUIRED: '`Idempotency-Key` missing (or empty) to send an ANECF.',
  ANECF_IDEMPOTENCY_CONFLICT: 'The same `Idempotency-Key` with another request (`details.annulmentId`).',
  ANECF_RANGE_RESERVED:
    'A range overlaps one another annulment holds (`details.annulmentId`, `details.range`).',
  ANECF_NOT_UNCERTAIN: 'Reconciliation of an annulment that is not `uncertain` (`details.status`).',
  ANECF_RECONCILIATION_CONFLICT:
    'Reconciliation again with another outcome or other evidence (`details.outcome`).',
  SEQUENCE_RANGE_INVALID:
    'A sequence range that is not one type and series, or reversed (`details.reason`, `details.path`).',
  SEQUENCE_RANGE_OVERLAP:
    'The range overlaps a registered range of the same type (`details.rangeId`, `details.from`, `details.to`).',
  ENCF_ANNULLED:
    'Emission of an eNCF inside a range reserved or annulled by an annulment (`details.encf`, `details.annulmentId`, `details.state`).',
  INVALID_RECEIVED_DOCUMENTS_QUERY:
    'Bad filter, limit or cursor on the received e-CF or received ACECF lists (`details.issues[]`).',
  RECEIVED_DOCUMENT_NOT_FOUND:
    "No received e-CF with this id in this account and environment (an ACECF's id included).",
  RECEIVED_DOCUMENT_XML_NOT_AVAILABLE:
    'A received e-CF without a kept copy (refused before its signature verified).',
  RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND:
    "No received ACECF with this id in this account and environment (a received e-CF's id included).",
  RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE: 'A received ACECF without a kept copy.',
  RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED: 'A stored received copy (e-CF or ACECF) fails its SHA-256 check.',
  COMMERCIAL_APPROVAL_DECISION_CONFLICT:
    'Another decision was already sent for this received e-CF (`details.decision`).',
  COMMERCIAL_APPROVAL_DATE_INVALID:
    "`approvalDate` not a real date, before the e-CF's `FechaEmision`, or later than now + 5 min (`details.reason`).",
  ACECF_TAXAUTH_SUBMISSION_UNCERTAIN:
    "The ACECF's submission to the tax authority has no known outcome (409; 502 when it happened in this request).",
  RECEIVED_ECF_NOT_VALID_IN_TAXAUTH:
    '`accept` of an e-CF Consulta Estado reported rejected or not found (`details.taxauthValidity`).',
  ACECF_TAXAUTH_REJECTED: 'The tax authority rejected the ACECF (`details.taxauthSubmission`).',
  ACECF_TARGET_URL_NOT_ALLOWED:
    '`targetUrl` given while the issuer is in the directory (`details.directoryTargetUrl`).',
  ACECF_DISPATCH_NOT_RECEIVED:
    'The issuer did not receive the ACECF (`retry_scheduled`, `dispatch_failed` or `uncertain`).',
  ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE:
    'No active certificate to sign the ACECF or to authenticate with the tax authority.',
  DIRECTORY_TAXAUTH_AUTH_FAILED: "The tax authority's authentication failed while looking up the directory.",
  DIRECTORY_ACCESS_TOKEN_MISSING: 'No tax authority token to query the directory.',
  ACECF_SIGNING_FAILED: 'The ACECF could not be signed.',
  COMMERCIAL_APPROVAL_NOT_UNCERTAIN:
    'Reconciliation of a commercial approval whose dispatch is not `uncertain` (`details.status`), or again with another outcome.',
  INVALID_CERTIFICATION_REQUEST: 'Certification (docs/certification.md).',
  CERTIFICATION_PART_INVALID: '`POST certificacion/reiniciar`.',
  COMMERCIAL_APPROVAL_SET_REQUIRED:
    '`POST certificacion/aprobaciones-comerciales` without `workbookBase64` (or with other properties).',
  CERTIFICATION_OWN_SET_REQUIRED:
    '`taxauthModel` before the tax authority accepted the commercial approvals (the model set is for the simulation; the data tests need the workbook the tax authority issued for the account).',
  CERTIFICATION_SET_ALREADY_USED: 'Some eNCF of the set was already sent by this account in CerteCF.',
  CERTIFICATION_DATA_TESTS_PENDING:
    'Commercial approval tests before the data tests were accepted (`details.step`).',
  COMMERCIAL_APPROVALS_IN_PROGRESS:
    'A commercial approvals send of the account is still queued or running (`details.sendId`).',
  CERTIFICATION_ENVIRONMENT_REQUIRED: 'A certification operation outside CerteCF (`details.environment`).',
  CERTIFICATION_MANAGED_BY_PARTNER:
    "The account's certification is run by its Partner through the Partner API.",
  CERTIFICATION_RUN_IN_PROGRESS: "A run of the account's case is still queued or running (`details.runId`).",
  CERTIFICATION_SIMULATION_NOT_READY:
    'The part asked for is not where the case stands (`details.step`, `details.part`).',
  CERTIFICATION_CASE_ALREADY_OPEN:
    'A Partner creates a case while the account has an open one with another set (`details.caseId`).',
  CERTIFICATION_XML_INVALID:
    'The application or sworn declaration XML to sign is not signable (`details.reason`: `too_large`, `not_signable`).',
  CERTIFICATION_EMBED_EXPIRED:
    'The temporary link to the embedded certification page expired (`details.expiredAt`).',
  IDEMPOTENCY_KEY_REQUIRED:
    '`Idempotency-Key` missing where a Partner route requires it (certification runs and commercial approval tests).',
  CERTIFICATION_APPROVED: "The account's certification is approved.",
  IDEMPOTENCY_CONFLICT:
    'The same `Idempotency-Key` with other parameters (Partner routes and certification runs).',
  CERTIFICATION_PREREQUISITES_MISSING:
    'An attestation or activation before the steps it follows (`details.missingSteps`).',
  CERTIFICATION_NOT_APPROVED: 'Production activation asked before the case is approved (`details.step`).',
  CERTIFICATION_DOCUMENT_NOT_RESENDABLE:
    '`reenviar` of a document the tax authority already resolved, or that is not a certification receipt (`details.status`).',
  CERTIFICATION_SET_INVALID: 'The set cannot be imported or one of its rows does not validate.',
  CERTIFICATION_SET_ISSUER_MISMATCH:
    "The set is for another RNC than the account's (`details.expectedRnc`, `details.errors[]`).",
  COMMERCIAL_APPROVAL_SET_INVALID:
    'The commercial approvals workbook cannot be read (`details.errors[]` with sheet, row, column, code).',
  COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER:
    'The commercial approvals workbook answers documents issued to another buyer than the account (`details.expectedRnc`).',
  RECEPTION_AUTHENTICATION_REQUIRED: 'Reception routes of a tenant that declared authentication.',
  PARTNER_KEY_MISSING: 'No `X-PARTNER-KEY` header on a Partner route.',
  PARTNER_KEY_INVALID: 'The `X-PARTNER-KEY` is unknown or revoked.',
  INVALID_PARTNER_PAYLOAD: "A Partner request's body, query, header or path identifier is invalid.",
  INVALID_BROWSER_ORIGIN:
    '`browserOrigin` is not an exact HTTPS origin (`https://host[:port]`, no path, query or fragment).',
  BROWSER_ORIGIN_NOT_ALLOWED: "`browserOrigin` is not among the Partner's registered browser origins.",
  PAYMENT_REQUIRED:
    'ECF emission without a paid Partner plan, or overdue after the grace period (`details.billingUrl`).',
  PARTNER_INACTIVE: 'The Partner is suspended.',
  FISCAL_ACCOUNT_NOT_FOUND:
    "No fiscal account with this id for this Partner (another Partner's included: never a leak).",
  RNC_NOT_AVAILABLE: 'The RNC belongs to an account of another Partner or to a direct account.',
  ACCOUNT_LINK_CONFLICT:
    'The `externalTenantId` is linked to an account with another RNC (`details.fiscalAccountId`, `details.rnc`).',
  RNC_CHANGE_REQUIRES_RECERTIFICATION: 'A profile change that names another RNC.',
  PRODUCTION_STATE_CONFLICT:
    "A production activation that the account's production state does not allow (`details.productionState`).",
  RNC_NOT_IN_TAXAUTH_REGISTRY: "A new account's RNC is not in the tax authority's taxpayer registry.",
  RNC_NOT_ACTIVE_IN_TAXAUTH:
    "A new account's RNC is in the registry but not ACTIVE (`details.status` as the registry writes it).",
  PLAN_LIMIT_EXCEEDED:
    "The Partner's monthly quota of accepted e-CF is used up across all its accounts (`details.plan`, `details.quota`, `details.used`, `details.month`).",
  UPLOAD_SESSION_INVALID: 'The certificate upload was refused before any attempt.',
  UPLOAD_SESSION_EXPIRED: 'The upload session is past its expiry (`details.expiredAt`).',
  UPLOAD_SESSION_EXHAUSTED: "The upload session's five attempts are used up.",
  UPLOAD_ORIGIN_MISMATCH: "The browser origin of the upload is not the session's (`Origin` header, CORS).",
} as const satisfies Record<TErrorCode, string>;

/**
 * The refusals of reading and checking a PKCS#12 signing certificate: the same on the portal's
 * upload form, the Partner API's upload session and the CLI.
 */
export const CERTIFICATE_CHECK_ERRORS = [
  'CERTIFICATE_PASSWORD_INVALID',
  'CERTIFICATE_FILE_INVALID',
  'CERTIFICATE_PRIVATE_KEY_MISSING',
  'CERTIFICATE_KEY_PAIR_NOT_FOUND',
  'CERTIFICATE_HOLDER_ID_MISSING',
  'CERTIFICATE_KEY_USAGE_INVALID',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_NOT_YET_VALID',
] as const satisfies readonly TErrorCode[];
