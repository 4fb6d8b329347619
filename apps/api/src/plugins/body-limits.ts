import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, assertSubmissionWithinLimits } from '@ecf/services';
import { ROUTES } from '../contract.ts';
import { rejectUnstorableText } from './json-body.ts';

/**
 * A status batch is at most 100 references of at most 64 characters: about 7 KB as JSON, so 64 KiB
 * leaves room for any formatting.
 */
export const STATUS_BATCH_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * A reconciliation carries an ARECF of at most 256 Ki characters and a note of 4000; JSON escaping
 * (`\"`, `\n`, `\u00e9`) can grow that text, 2 MiB covers it with room.
 */
export const RECONCILIATION_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/**
 * An annulment holds at most 10 types × 10,000 ranges of two 13-character eNCF (about 60 bytes a
 * range as compact JSON, 6 MB in all): 8 MiB, capped by API_BODY_LIMIT_BYTES (6 MiB by default).
 * A sequence range is a few hundred bytes.
 */
export const ANNULMENT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
export const SEQUENCE_BODY_LIMIT_BYTES = 16 * 1024;
/**
 * A certification set: `workbookBase64` is at most 700 KB of text; the JSON form of the tax
 * authority's 29 rows of about 5,200 columns is up to a few MB (every column of every row given):
 * 6 MiB, capped by API_BODY_LIMIT_BYTES. The commercial approvals' workbook is base64 alone: 1 MiB;
 * an attestation is at most 50 × 500 + 4,000 characters: 64 KiB.
 */
export const CERTIFICATION_SET_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
export const CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES = 1024 * 1024;
export const CERTIFICATION_SMALL_BODY_LIMIT_BYTES = 64 * 1024;
/** Every other route (GETs, unknown paths): none of them reads a body. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * How much of a refused body is still read (and thrown away) before the connection is closed, and
 * for how long. Closing while the client is still sending makes the client's kernel answer our
 * next segment with a reset and drop the answer it had not read yet (EPIPE/ECONNRESET instead of
 * the 400); reading the rest first lets it finish sending and read the error. Beyond these bounds
 * the connection is closed anyway (a client that sends 100 MB to a 6 MiB limit may miss its answer).
 */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
export const DRAIN_TIMEOUT_MS = 30_000;

type TBodyRule = {
  bodyLimit: number;
  checkJsonBytes?: (body: Buffer) => Promise<void>;
  checkJsonValue?: (value: unknown) => void;
};

/**
 * The body rules of the routes that take one, by method and path: the limit (never above
 * `API_BODY_LIMIT_BYTES`), the route's cheap checks of its JSON bytes, and of its parsed value. A new route with a body
 * adds its line here; without one it gets {@link DEFAULT_BODY_LIMIT_BYTES}.
 */
export function bodyRulesOf(options: { submissionLimitBytes: number }): Map<string, TBodyRule> {
  const capped = (limit: number) => Math.min(limit, options.submissionLimitBytes);
  return new Map<string, TBodyRule>([
    [
      `POST ${ROUTES.submitDocument.path}`,
      {
        bodyLimit: options.submissionLimitBytes,
        checkJsonBytes: (rawBody) => assertSubmissionWithinLimits({ rawBody }),
      },
    ],
    [
      `POST ${ROUTES.statusBatch.path}`,
      { bodyLimit: capped(STATUS_BATCH_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    [
      `POST ${ROUTES.registerSequence.path}`,
      { bodyLimit: capped(SEQUENCE_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    [
      `POST ${ROUTES.prevalidateAnnulment.path}`,
      { bodyLimit: capped(ANNULMENT_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    [
      `POST ${ROUTES.sendAnnulment.path}`,
      { bodyLimit: capped(ANNULMENT_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    [
      `POST ${ROUTES.reconcileAnnulment.path}`,
      { bodyLimit: capped(RECONCILIATION_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    [
      `POST ${ROUTES.reconcileReceiverDelivery.path}`,
      { bodyLimit: capped(RECONCILIATION_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    ...[ROUTES.prevalidateCertification, ROUTES.startCertificationRun].map((route): [string, TBodyRule] => [
      `POST ${route.path}`,
      { bodyLimit: capped(CERTIFICATION_SET_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ]),
    [
      `POST ${ROUTES.sendCertificationApprovals.path}`,
      { bodyLimit: capped(CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
    ],
    ...[ROUTES.restartCertification, ROUTES.recordCertificationAttestation].map(
      (route): [string, TBodyRule] => [
        `POST ${route.path}`,
        { bodyLimit: capped(CERTIFICATION_SMALL_BODY_LIMIT_BYTES), checkJsonValue: rejectUnstorableText },
      ],
    ),
  ]);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once `100 Continue` was sent: the client is now sending its body. */
    continued?: boolean;
  }
}

function expectsContinue(request: FastifyRequest): boolean {
  return /^100-continue$/i.test(String(request.headers.expect ?? '').trim());
}

/** `BODY_TOO_LARGE` for this request's route limit. */
export function bodyTooLarge(limitBytes: number): AppError {
  return new AppError('BODY_TOO_LARGE', `The request body exceeds ${limitBytes} bytes.`, {
    details: { limitBytes },
  });
}

/**
 * Reads and discards what is left of a request body, at most {@link DRAIN_MAX_BYTES} and
 * {@link DRAIN_TIMEOUT_MS}. True when the body was read to its end (the connection can be kept or
 * closed safely), false when a bound was hit or the client went away.
 */
export function drainRequestBody(raw: IncomingMessage): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  const declared = Number(raw.headers['content-length']);
  if (declared > DRAIN_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onGone);
      raw.off('close', onGone);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DRAIN_MAX_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onGone);
    raw.once('close', onGone);
    raw.resume();
  });
}

/**
 * Before any answer goes out while the request's body is still arriving (refused for its size or
 * type, unknown route, early errors), the rest of the body is drained (bounded) so the client can
 * finish sending and read the answer; if a bound is hit the connection is closed after the answer.
 * A client that asked `Expect: 100-continue` and was not told to continue sends no body: nothing
 * to drain, and Node closes that connection itself.
 */
async function drainBeforeAnswer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.raw.complete || (expectsContinue(request) && !request.continued)) return;
  const drained = await drainRequestBody(request.raw);
  if (!drained) reply.header('connection', 'close');
}

/**
 * Per-route body limits (`onRoute`, from {@link bodyRulesOf}), `Expect: 100-continue` (a declared
 * `Content-Length` over the route's limit is refused before the client sends the body; within it
 * the server asks for the body just before reading it), and the drain of a refused body (see
 * {@link drainBeforeAnswer}). Register before the routes.
 */
export function registerBodyLimits(app: FastifyInstance, options: { submissionLimitBytes: number }): void {
  const rules = bodyRulesOf(options);
  const applied = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      const rule = rules.get(key);
      if (!rule) continue;
      applied.add(key);
      route.bodyLimit ??= rule.bodyLimit;
      const { checkJsonBytes, checkJsonValue } = rule;
      route.config = {
        ...route.config,
        ...(checkJsonBytes ? { checkJsonBytes } : {}),
        ...(checkJsonValue ? { checkJsonValue } : {}),
      };
    }
  });
  app.addHook('onReady', async () => {
    // A rule whose route moved would silently leave that route at the default limit, unchecked.
    const unmatched = [...rules.keys()].filter((key) => !applied.has(key));
    if (unmatched.length > 0) throw new Error(`body rules without a route: ${unmatched.join(', ')}`);
  });

  // With a 'checkContinue' listener Node leaves `100 Continue` to us (its default sends it at once).
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  // Other expectations reach the routes too, to be refused as an ErrorResponse (not Node's bare 417).
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));

  app.addHook('onRequest', async (request) => {
    const expect = request.headers.expect;
    if (expect !== undefined && !expectsContinue(request)) {
      throw new AppError(
        'INVALID_REQUEST',
        `Expect: ${String(expect).slice(0, 64)} is not supported; only 100-continue.`,
        {
          details: { reason: 'expectation_not_supported' },
        },
      );
    }
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!expectsContinue(request) || request.continued) return payload;
    const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
    if (Number(request.headers['content-length']) > limit) throw bodyTooLarge(limit);
    request.continued = true;
    reply.raw.writeContinue();
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    await drainBeforeAnswer(request, reply);
    return payload;
  });
}
