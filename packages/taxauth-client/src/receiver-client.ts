/**
 * The receiver side of the e-CF protocol (FACTS §2): every electronic issuer delivers its e-CF to
 * the buyer's own reception service, which speaks the tax authority's protocol (seed → signed seed
 * → token, then a multipart upload) and answers a signed acknowledgement (ARECF). This client does
 * the exchanges and reports what came back; what an answer means for a delivery is the caller's.
 *
 * Unlike the tax authority's client: redirects are never followed (a 3xx comes back as its
 * status), and an answer is read in chunks and abandoned past `maxAnswerBytes` (never buffered whole).
 */
import type { TSigningCertificate } from '@ecf/fiscal-core';
import { errorCode } from './http.ts';
import { buildXmlMultipart } from './multipart.ts';
import { signedSeedUpload, signSeed, tokenOfValidationAnswer } from './seed-authentication.ts';

/** At most this much of a refusal's body is kept (the spec keeps 4 KB of a dispatch's answer). */
export const KEPT_BODY_BYTES = 4096;

/** An exchange that got an answer (any status), or why none came. */
export type TReceiverExchange =
  | { ok: true; status: number; body: string }
  | {
      ok: false;
      reason: 'timeout' | 'connection' | 'answer_too_large';
      message: string;
      /** The socket's error code of a `connection` failure (`ECONNREFUSED`, `ECONNRESET`...), when known. */
      code?: string;
    };

/** Why an authentication (or an attempt) failed, as the caller records it. */
export type TReceiverFailure = { reason: string; message: string; httpStatus?: number; body?: string };

/** A token, or the failure: `transient` when it may pass later (no answer, 408, 429, 5xx, a malformed answer). */
export type TReceiverAuthentication =
  { ok: true; token: string } | { ok: false; transient: boolean; failure: TReceiverFailure };

export type TReceiverClient = {
  /** Seed from `{base}/semilla`, signed with `certificate`, validated at `{base}/validacioncertificado`. */
  authenticate(input: { base: URL; certificate: TSigningCertificate }): Promise<TReceiverAuthentication>;
  /** POSTs an XML document as multipart part `xml` named `fileName` (with `Bearer token` when given). */
  postDocument(input: {
    url: URL;
    xml: string;
    fileName: string;
    token?: string;
  }): Promise<TReceiverExchange>;
  /** {@link postDocument} of an e-CF to the receiver's reception URL, file `{RNCEmisor}{eNCF}.xml`. */
  sendEcf(input: { url: URL; xml: string; fileName: string; token?: string }): Promise<TReceiverExchange>;
};

/** The first `KEPT_BODY_BYTES` bytes of a body (UTF-8), as kept with a failure. */
export function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  return bytes.length <= KEPT_BODY_BYTES ? body : bytes.subarray(0, KEPT_BODY_BYTES).toString('utf8');
}

/** Creates a receiver client. `timeoutMs` bounds each exchange (connect, upload, whole answer). */
export function createReceiverClient(options: {
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxAnswerBytes: number;
}): TReceiverClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function exchange(
    url: URL,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Buffer<ArrayBuffer> },
  ): Promise<TReceiverExchange> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await doFetch(url, {
        method: init.method,
        headers: init.headers,
        signal,
        redirect: 'manual',
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      const body = await readLimited(response, options.maxAnswerBytes);
      if (body === undefined)
        return {
          ok: false,
          reason: 'answer_too_large',
          message: `The answer exceeds ${options.maxAnswerBytes} bytes.`,
        };
      return { ok: true, status: response.status, body };
    } catch (error) {
      if (signal.aborted)
        return { ok: false, reason: 'timeout', message: `No answer within ${timeoutMs} ms.` };
      const code = errorCode(error);
      return {
        ok: false,
        reason: 'connection',
        message: `${init.method} ${url.host}${url.pathname} failed${code === undefined ? '' : ` (${code})`}.`,
        ...(code === undefined ? {} : { code }),
      };
    }
  }

  async function postDocument(input: { url: URL; xml: string; fileName: string; token?: string }) {
    const multipart = buildXmlMultipart(input.xml, input.fileName);
    const headers: Record<string, string> = {
      'content-type': multipart.contentType,
      'content-length': multipart.contentLength,
      accept: 'application/xml',
    };
    if (input.token !== undefined) headers['authorization'] = `Bearer ${input.token}`;
    return exchange(input.url, { method: 'POST', headers, body: multipart.body });
  }

  return {
    async authenticate({ base, certificate }) {
      const seed = authenticationStep(
        await exchange(new URL(`${base.pathname}/semilla`, base), {
          method: 'GET',
          headers: { accept: 'application/xml' },
        }),
        'seed',
      );
      if (!seed.ok) return seed;
      const signed = signSeed(seed.body, certificate);
      if (!signed.ok)
        return {
          ok: false,
          transient: true,
          failure: { reason: 'seed_malformed', message: signed.message.slice(0, 300) },
        };
      const upload = signedSeedUpload(signed.xml);
      const validation = authenticationStep(
        await exchange(new URL(`${base.pathname}/validacioncertificado`, base), {
          method: 'POST',
          headers: {
            'content-type': upload.contentType,
            'content-length': upload.contentLength,
            accept: 'application/json',
          },
          body: upload.body,
        }),
        'validation',
      );
      if (!validation.ok) return validation;
      const token = tokenOfValidationAnswer(validation.body);
      if (token === undefined)
        return {
          ok: false,
          transient: true,
          failure: {
            reason: 'token_malformed',
            message: 'The receiver answered its certificate validation without a token.',
          },
        };
      return { ok: true, token };
    },
    postDocument,
    sendEcf: postDocument,
  };
}

function authenticationStep(
  answer: TReceiverExchange,
  step: 'seed' | 'validation',
): { ok: true; body: string } | { ok: false; transient: boolean; failure: TReceiverFailure } {
  if (!answer.ok)
    return {
      ok: false,
      transient: true,
      failure: { reason: `authentication_${answer.reason}`, message: answer.message },
    };
  const { status, body } = answer;
  if (status >= 200 && status < 300) return { ok: true, body };
  const failure = {
    reason: `authentication_${step}_http_${status}`,
    httpStatus: status,
    message: `The receiver's authentication (${step}) answered HTTP ${status}.`,
    body: excerpt(body),
  };
  return { ok: false, transient: status === 408 || status === 429 || status >= 500, failure };
}

/** The body as text, or undefined past `limit` bytes (read in chunks: a huge answer is not buffered). */
async function readLimited(response: Response, limit: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || value === undefined) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
