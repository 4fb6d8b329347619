import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import {
  AppError,
  getAnnulment,
  listAnnulments,
  listSequenceRanges,
  prevalidateAnnulment,
  reconcileAnnulment,
  registerSequenceRange,
  sendAnnulment,
  type TCertificateKeyring,
} from '@ecf/services';
import { IDEMPOTENCY_KEY_MAX_LENGTH, ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';
import {
  annulmentBodyOf,
  annulmentSummaryOf,
  prevalidationBodyOf,
  sequenceRangeOf,
} from './annulment-bodies.ts';

/** Where the signing certificate of a tenant comes from: the keyring (production) or a loader (tests). */
type TCertificateSource = {
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
};

export type TAnnulmentRoutesOptions = TAuthenticationContext &
  TCertificateSource & {
    xsd: TXsdValidators;
    /** The tax authority client of an environment (one per environment for the process: it caches tokens). */
    clientFor: (environment: Environment) => TTaxauthClient;
  };

/** A type given as `E31` is the type `31` (the contract reads both). */
function typeCode(type: string): string {
  return type.startsWith('E') ? type.slice(1) : type;
}

/**
 * `Idempotency-Key` of a send: 428 when missing or empty (nothing is built, stored or sent); 400
 * when longer than 200 characters or not printable ASCII (a key is echoed in logs and compared
 * byte for byte).
 */
function idempotencyKeyOf(request: FastifyRequest): string {
  const header = request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key.trim() === '') {
    throw new AppError(
      'ANECF_IDEMPOTENCY_KEY_REQUIRED',
      'Send the annulment with an Idempotency-Key header: the same key and body again replays the answer instead of annulling twice.',
    );
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError(
      'INVALID_REQUEST',
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces.`,
      { details: { reason: 'idempotency_key_invalid', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH } },
    );
  }
  return key;
}

/** Sequences (`/secuencias`) and annulments (`/anulaciones-ecf`), issue 17; every route needs `tenant:admin`. */
export function registerAnnulmentRoutes(app: FastifyInstance, options: TAnnulmentRoutesOptions): void {
  const { database } = options;
  const certificateSource: TCertificateSource = {
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.loadCertificate ? { loadCertificate: options.loadCertificate } : {}),
  };

  const list = ROUTES.listSequences;
  app.get(list.path, { preHandler: requireApiKey(options, list.scopes) }, async (request) => {
    const principal = principalOf(request);
    const ranges = await listSequenceRanges({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
    });
    return { ok: true, environment: principal.environment, items: ranges.map(sequenceRangeOf) };
  });

  const register = ROUTES.registerSequence;
  app.post(register.path, { preHandler: requireApiKey(options, register.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    const body = register.body.parse(request.body);
    const range = await registerSequenceRange({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      type: typeCode(body.type),
      from: body.from,
      to: body.to,
      sequenceExpirationDate: body.sequenceExpirationDate,
    });
    return reply
      .code(201)
      .send({ ok: true, environment: principal.environment, sequence: sequenceRangeOf(range) });
  });

  const prevalidate = ROUTES.prevalidateAnnulment;
  app.post(prevalidate.path, { preHandler: requireApiKey(options, prevalidate.scopes) }, async (request) => {
    const principal = principalOf(request);
    const body = prevalidate.body.parse(request.body);
    const result = await prevalidateAnnulment({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      request: { ...body, ranges: body.ranges.map((range) => ({ ...range, type: typeCode(range.type) })) },
      now: new Date(),
      xsd: options.xsd,
    });
    return prevalidationBodyOf(principal.environment, result);
  });

  const send = ROUTES.sendAnnulment;
  app.post(send.path, { preHandler: requireApiKey(options, send.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    // The key first: without one nothing else is looked at (428 even for a bad body).
    const idempotencyKey = idempotencyKeyOf(request);
    const body = send.body.parse(request.body);
    const result = await sendAnnulment({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      request: { ...body, ranges: body.ranges.map((range) => ({ ...range, type: typeCode(range.type) })) },
      idempotencyKey,
      xsd: options.xsd,
      clientFor: options.clientFor,
      ...certificateSource,
    });
    const status = result.replayed ? 200 : result.httpStatus;
    return reply.code(status).send(annulmentBodyOf(principal.environment, result.annulment));
  });

  const listAll = ROUTES.listAnnulments;
  app.get(listAll.path, { preHandler: requireApiKey(options, listAll.scopes) }, async (request) => {
    const principal = principalOf(request);
    const query = listAll.query.parse(request.query);
    const page = await listAnnulments({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      status: query.status,
      limit: query.limit,
      cursor: query.cursor,
    });
    return {
      ok: true,
      environment: principal.environment,
      items: page.items.map((item) => annulmentSummaryOf(principal.environment, item)),
      nextCursor: page.nextCursor,
    };
  });

  const get = ROUTES.getAnnulment;
  app.get(get.path, { preHandler: requireApiKey(options, get.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = get.params.parse(request.params);
    const annulment = await getAnnulment({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      annulmentId: params.annulmentId,
    });
    return annulmentBodyOf(principal.environment, annulment);
  });

  const reconcile = ROUTES.reconcileAnnulment;
  app.post(reconcile.path, { preHandler: requireApiKey(options, reconcile.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = reconcile.params.parse(request.params);
    const body = reconcile.body.parse(request.body);
    const result = await reconcileAnnulment({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      annulmentId: params.annulmentId,
      outcome: body.outcome,
      evidence: body.evidence,
      ...(body.note === undefined ? {} : { note: body.note }),
    });
    return annulmentBodyOf(principal.environment, result.annulment);
  });
}
