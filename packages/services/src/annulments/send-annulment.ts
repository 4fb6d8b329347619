import { randomUUID } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import { signXml, type TXsdValidators } from '@ecf/fiscal-core';
import { annulmentOutcomeOf, type TAnnulmentOutcome, type TTaxauthClient } from '@ecf/taxauth-client';
import {
  assertAccountProductionActive,
  resolveDocumentCertificate,
  type TCertificateSource,
} from '../accounts/index.ts';
import {
  findAnnulment,
  findAnnulmentByKey,
  findDocumentsInRanges,
  isUniqueViolation,
  markAnnulmentSending,
  recordAnnulmentAnswer,
  reserveAnnulment,
  type TAnnulmentRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import {
  annulmentViewOf,
  assertAnnulmentEnvironment,
  buildAnnulmentXml,
  canonicalRequestOf,
  conflictsOf,
  httpStatusOf,
  requestFingerprintOf,
  type TAnnulmentRequest,
  type TAnnulmentView,
} from './annulment-model.ts';
import { settleAcceptedAnnulment } from './settle-accepted-annulment.ts';

/** Longest `Idempotency-Key` accepted. */
export const ANNULMENT_IDEMPOTENCY_KEY_MAX_LENGTH = 200;

export type TSendAnnulmentResult = {
  /** 202 accepted, 422 rejected, 502 uncertain, 200 built (not sent: the tax authority was unreachable) or sending. */
  httpStatus: 200 | 202 | 422 | 502;
  /** The same key and request were seen before: this is the stored annulment, nothing was sent again. */
  replayed: boolean;
  annulment: TAnnulmentView;
};

type TSendOptions = TCertificateSource & {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  environment: Environment;
  request: TAnnulmentRequest;
  idempotencyKey: string | undefined;
  xsd: TXsdValidators;
  /** The tax authority client of an environment (the same the worker uses). */
  clientFor: (environment: Environment) => TTaxauthClient;
  now?: () => Date;
  /** Test seam: runs after the answer is recorded and before the local cancellation (the SIGKILL case). */
  afterAnswerRecorded?: (state: string) => Promise<void> | void;
};

/**
 * `POST /{environment}/anulaciones-ecf`: validates like prevalidation, signs the ANECF, reserves
 * its ranges, sends it and records the answer.
 *
 * - `Idempotency-Key` required (428 `ANECF_IDEMPOTENCY_KEY_REQUIRED`), at most 200 characters
 *   (400 `INVALID_REQUEST`). The same key with the same request replays the stored annulment
 *   (`replayed`, nothing sent again, except a `built` one that never left: sent now); with another
 *   request: 409 `ANECF_IDEMPOTENCY_CONFLICT`.
 * - 400 `ANECF_NOT_AVAILABLE_IN_CERTECF`, `ANECF_INVALID`, `ANECF_DOCUMENT_CONFLICT` (before reserving).
 * - In `eCF`, 423 `PRODUCTION_NOT_ACTIVE` until the account's production authorization is active
 *   (replays included, nothing built or sent): the tax authority annuls only authorized sequences
 *   of an authorized electronic issuer (Formato Anulación de e-NCF, `RncEmisor` validations b and
 *   c), and an account not yet authorized has no production sequence to annul (docs/annulments.md).
 * - The reservation (persistence/annulments/annulments.ts) is the annulment's side of the race with emission:
 *   409 `ANECF_RANGE_RESERVED` when another annulment holds a range; 409 `ANECF_DOCUMENT_CONFLICT`
 *   (`details.documentId`) when a document of the ranges was stored or claimed for sending first.
 * - Answer: 202 `accepted` (documents that never left cancelled, with their jobs), 422 `rejected`
 *   (ranges freed; send a corrected request with another key), 502 `uncertain` (no answer or a
 *   partial annulment: never resent automatically; reconcile). An upload that provably never
 *   reached the tax authority leaves the annulment `built` (200): the same key sends it again.
 */
export async function sendAnnulment(options: TSendOptions): Promise<TSendAnnulmentResult> {
  const { database, tenant, environment, request } = options;
  const now = options.now ?? (() => new Date());
  const key = options.idempotencyKey;
  if (key === undefined || key === '')
    throw new AppError('ANECF_IDEMPOTENCY_KEY_REQUIRED', 'Send an Idempotency-Key header to send an ANECF.');
  if (key.length > ANNULMENT_IDEMPOTENCY_KEY_MAX_LENGTH)
    throw new AppError('INVALID_REQUEST', 'The Idempotency-Key is longer than 200 characters.', {
      details: { reason: 'idempotency_key_too_long', maxLength: ANNULMENT_IDEMPOTENCY_KEY_MAX_LENGTH },
    });
  assertAnnulmentEnvironment(environment);
  await assertAccountProductionActive({ database, tenantId: tenant.id, environment });
  const fingerprint = requestFingerprintOf(request);
  const scope = { tenantId: tenant.id, environment };

  const earlier = await findAnnulmentByKey(database, { ...scope, idempotencyKey: key });
  if (earlier) return replay(options, earlier, fingerprint, now);

  const built = buildAnnulmentXml({ rnc: tenant.rnc, request, now: now(), xsd: options.xsd });
  const documents = await findDocumentsInRanges(database, { ...scope, ranges: built.ranges });
  const conflicts = conflictsOf(documents, now());
  if (conflicts.length > 0)
    throw new AppError(
      'ANECF_DOCUMENT_CONFLICT',
      `${conflicts.length} document(s) of the ranges arrived or could have arrived at the tax authority or the buyer.`,
      { details: { conflicts } },
    );

  const resolved = await resolveDocumentCertificate({
    ...options,
    database,
    tenantId: tenant.id,
    step: 'sendAnnulment',
  });
  if (!resolved.ok) throw new AppError('CERTIFICATE_NOT_ACTIVE', resolved.message);
  const signed = signXml(built.xml, resolved.certificate).xml;

  let reservation;
  try {
    reservation = await reserveAnnulment(database, {
      id: randomUUID(),
      ...scope,
      idempotencyKey: key,
      requestFingerprint: fingerprint,
      request: canonicalRequestOf(request),
      signedXml: signed,
      ranges: built.ranges,
      now: now(),
      isBlocking: (found) => conflictsOf(found, now()).length > 0,
    });
  } catch (error) {
    // The same key raced with a request on other prefixes: the stored one decides.
    if (!isUniqueViolation(error)) throw error;
    const stored = await findAnnulmentByKey(database, { ...scope, idempotencyKey: key });
    if (!stored) throw error;
    return replay(options, stored, fingerprint, now);
  }
  switch (reservation.kind) {
    case 'existing':
      return replay(options, reservation.annulment, fingerprint, now);
    case 'range_reserved':
      throw new AppError(
        'ANECF_RANGE_RESERVED',
        'Another annulment is already annulling part of these ranges.',
        {
          details: {
            annulmentId: reservation.annulmentId,
            range: { from: reservation.from, to: reservation.to },
          },
        },
      );
    case 'blocked': {
      const raced = conflictsOf(reservation.documents, now());
      throw new AppError(
        'ANECF_DOCUMENT_CONFLICT',
        'A document of the ranges was submitted or sent while the annulment was being reserved.',
        { status: 409, details: { documentId: raced[0]?.documentId ?? null, conflicts: raced } },
      );
    }
    case 'reserved':
      return deliver(options, reservation.annulment, now, false);
  }
}

/** The same key again: the stored annulment (a `built` one is sent now), or 409 for another request. */
async function replay(
  options: TSendOptions,
  stored: TAnnulmentRow,
  fingerprint: string,
  now: () => Date,
): Promise<TSendAnnulmentResult> {
  if (stored.requestFingerprint !== fingerprint)
    throw new AppError(
      'ANECF_IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used with another annulment request.',
      { details: { annulmentId: stored.id } },
    );
  if (stored.state === 'built') return deliver(options, stored, now, true);
  if (stored.state === 'accepted' && stored.coveredSettledAt === null) {
    await settleAcceptedAnnulment({ database: options.database, annulmentId: stored.id, now: now() });
    return answerOf(options, stored.id, true);
  }
  return { httpStatus: httpStatusOf(stored.state), replayed: true, annulment: annulmentViewOf(stored) };
}

/** Sends a `built` annulment (taken `built` → `sending` first: one sender), records the answer, settles an acceptance. */
async function deliver(
  options: TSendOptions,
  annulment: TAnnulmentRow,
  now: () => Date,
  replayed: boolean,
): Promise<TSendAnnulmentResult> {
  const { database, tenant, environment } = options;
  if (!(await markAnnulmentSending(database, { annulmentId: annulment.id, at: now() })))
    return answerOf(options, annulment.id, replayed);
  const resolved = await resolveDocumentCertificate({
    ...options,
    database,
    tenantId: tenant.id,
    step: 'sendAnnulment',
  });
  let outcome: TAnnulmentOutcome;
  if (!resolved.ok) {
    await recordAnnulmentAnswer(database, {
      annulmentId: annulment.id,
      state: 'built',
      answer: { notSent: 'CERTIFICATE_NOT_ACTIVE' },
      at: now(),
    });
    throw new AppError('CERTIFICATE_NOT_ACTIVE', resolved.message);
  } else {
    const taxpayer = options
      .clientFor(environment)
      .forTaxpayer({ cacheKey: tenant.id, certificate: resolved.certificate });
    outcome = await annulmentOutcomeOf(() => taxpayer.annulRanges({ xml: annulment.signedXml ?? '' }));
  }
  const mensajes = outcome.messages.map((message) => String(message.valor ?? message.codigo ?? ''));
  if (outcome.state === 'not_sent') {
    await recordAnnulmentAnswer(database, {
      annulmentId: annulment.id,
      state: 'built',
      answer: { notSent: outcome.error.reason, retryable: outcome.retryable, mensajes },
      at: now(),
    });
    return answerOf(options, annulment.id, replayed);
  }
  const answer = {
    codigo: outcome.state === 'accepted' ? String(outcome.answer.codigo) : (outcome.answer?.codigo ?? null),
    nombre: outcome.state === 'accepted' ? outcome.answer.nombre : (outcome.answer?.nombre ?? null),
    mensajes,
    ...(outcome.state === 'uncertain' ? { cause: outcome.cause } : {}),
    ...(outcome.state !== 'accepted' && outcome.error !== undefined
      ? { error: { reason: outcome.error.reason, status: outcome.error.status ?? null } }
      : {}),
  };
  await recordAnnulmentAnswer(database, {
    annulmentId: annulment.id,
    state: outcome.state,
    answer,
    at: now(),
  });
  await options.afterAnswerRecorded?.(outcome.state);
  if (outcome.state === 'accepted')
    await settleAcceptedAnnulment({ database, annulmentId: annulment.id, now: now() });
  return answerOf(options, annulment.id, replayed);
}

async function answerOf(
  options: TSendOptions,
  annulmentId: string,
  replayed: boolean,
): Promise<TSendAnnulmentResult> {
  const row = await findAnnulment(options.database, {
    tenantId: options.tenant.id,
    environment: options.environment,
    annulmentId,
  });
  if (!row) throw new Error(`sendAnnulment: annulment ${annulmentId} vanished`);
  return { httpStatus: httpStatusOf(row.state), replayed, annulment: annulmentViewOf(row) };
}
