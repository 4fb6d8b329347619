/**
 * The tRPC HTTP endpoint's rules, before tRPC sees a request (pure: tested with plain Requests):
 * - only GET (queries) and POST (mutations, and batched queries) reach tRPC; tRPC itself refuses a
 *   mutation over GET (405), and method override is off;
 * - a POST must carry JSON (`application/json`): no form posts, no multipart, no binary inputs;
 * - a POST must come from the portal's own origin: `Origin` equal to the public origin (or, when a
 *   browser sends no Origin, `Sec-Fetch-Site: same-origin`); a request that says neither is refused.
 *   A GET that a browser marks as cross-site is refused too (reads may write support's audit entries).
 * Together with sameSite=lax cookies this is the CSRF protection of every mutation.
 *
 * Then the request edge (issue 25), the same reader as every other surface (`readJsonBody` of
 * `@ecf/services`): the procedures named in the path (`a` or, batched, `a,b?batch=1`) must each have
 * a line in `procedure-limits.ts` (else 404 `ROUTE_NOT_FOUND`, the body unread); a POST body is read
 * under the largest `bodyBytes`/`bodyTimeoutMs` of the named procedures (Content-Length checked
 * first, the stream cancelled at the cap, 400 `BODY_TOO_LARGE` / `REQUEST_TIMEOUT`), a GET's `input`
 * parameter is decoded to bytes and read the same way; strict UTF-8, duplicate member names, then
 * each procedure's input against ITS OWN depth/string/array limits, U+0000 and lone surrogates
 * refused (400 `INVALID_JSON` / `INVALID_REQUEST` with `details.reason` and `path` relative to that
 * input). tRPC then gets a new Request carrying the checked text. A refusal is the error a
 * procedure's own AppError gives the page (`data.appCode`, `data.details`), one per procedure of a
 * batch, built by tRPC's own `getErrorShape` and the portal's error formatter.
 */
import type { TRPCError } from '@trpc/server';
import { getErrorShape, transformTRPCResponse } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import {
  AppError,
  assertJsonShape,
  assertStorableText,
  bodyTooLarge,
  edgeLimits,
  readJsonBody,
  readRequestBytes,
  takeCpuTurn,
  type TEdgeLimits,
} from '@ecf/services';
import type { TTrpcContext } from './context.ts';
import { toTrpcError } from './app-errors.ts';
import { limitsOfProcedure } from './procedure-limits.ts';
import { MAX_BATCH_PROCEDURES } from '../../lib/trpc/batch.ts';
import { appRouter } from '../routers/root.ts';

export const TRPC_ENDPOINT = '/api/trpc';

/** tRPC's own refusal of a method it does not serve (no AppError code says it). */
function methodRefusal(): Response {
  const message = 'Only GET (queries) and POST are accepted.';
  const data = {
    code: 'METHOD_NOT_SUPPORTED',
    httpStatus: 405,
    appCode: null,
    details: null,
    fieldErrors: null,
  };
  return new Response(JSON.stringify({ error: { message, code: -32600, data } }), {
    status: 405,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/**
 * Why a request may not reach tRPC; null when it may. Refusals are AppErrors shaped as a
 * procedure's (`FORBIDDEN` 403, `UNSUPPORTED_CONTENT_TYPE` 400 as the API answers it), but for a
 * method tRPC does not serve (405).
 */
export function refusalOf(request: Request, publicOrigin: string): Response | null {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') return methodRefusal();
  const call = callOf(new URL(request.url));
  const fetchSite = request.headers.get('sec-fetch-site');
  if (method === 'GET') {
    if (fetchSite === 'cross-site' || fetchSite === 'same-site')
      return edgeRefusal(
        new AppError('FORBIDDEN', 'Cross-site request refused.', { details: { reason: 'cross_site' } }),
        call,
      );
    return null;
  }
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json')
    return edgeRefusal(
      new AppError('UNSUPPORTED_CONTENT_TYPE', 'Mutations are JSON (content-type: application/json).', {
        details: { accepted: ['application/json'] },
      }),
      call,
    );
  const origin = request.headers.get('origin');
  const sameOrigin = origin !== null ? origin === publicOrigin : fetchSite === 'same-origin';
  if (!sameOrigin)
    return edgeRefusal(
      new AppError('FORBIDDEN', 'Cross-origin request refused.', { details: { reason: 'cross_origin' } }),
      call,
    );
  return null;
}

/** The procedures a request names, with their declared limits. */
type TTrpcCall = { isBatch: boolean; paths: string[]; limits: TEdgeLimits[] };

/** The procedures named by the URL, as tRPC reads them (path after the endpoint, decoded, `,` when batched). */
function callOf(url: URL): TTrpcCall {
  const isBatch = url.searchParams.get('batch') === '1';
  const trim = (text: string) => text.replace(/^\//, '').replace(/\/$/, '');
  const pathname = trim(url.pathname);
  let path = trim(pathname.slice(trim(TRPC_ENDPOINT).length));
  try {
    path = decodeURIComponent(path);
  } catch {
    path = '';
  }
  const paths = isBatch ? path.split(',') : [path];
  return { isBatch, paths, limits: paths.map((name) => limitsOfProcedure(name) ?? NO_PROCEDURE) };
}

/** Stands for a name with no line: such a call is refused before its body is read. */
const NO_PROCEDURE: TEdgeLimits = Object.freeze({
  bodyBytes: 0,
  bodyTimeoutMs: 0,
  maxDepth: 0,
  maxStringLength: 0,
  maxArrayLength: 0,
});

/** The largest of each limit: what the batch's body as a whole may take. */
function widestOf(limits: TEdgeLimits[]): TEdgeLimits {
  const widest = (key: keyof TEdgeLimits) => Math.max(...limits.map((limit) => limit[key]));
  return edgeLimits(limits[0] ?? NO_PROCEDURE, {
    bodyBytes: widest('bodyBytes'),
    bodyTimeoutMs: widest('bodyTimeoutMs'),
    maxDepth: widest('maxDepth'),
    maxStringLength: widest('maxStringLength'),
    maxArrayLength: widest('maxArrayLength'),
  });
}

const UTF8_ENCODER = new TextEncoder();

/**
 * The raw bytes of the `input` query parameter (percent-decoded, `+` as a space, as URLSearchParams
 * reads it, but without turning invalid UTF-8 into U+FFFD); null when absent or empty (no input).
 */
function queryInputBytesOf(url: URL): Uint8Array | null {
  const raw: string[] = [];
  for (const pair of url.search.replace(/^\?/, '').split('&')) {
    const separator = pair.indexOf('=');
    const name = separator === -1 ? pair : pair.slice(0, separator);
    if ([...new URLSearchParams(`${name}=`).keys()][0] !== 'input') continue;
    raw.push(separator === -1 ? '' : pair.slice(separator + 1));
  }
  if (raw.length > 1)
    throw new AppError('INVALID_REQUEST', 'The query names `input` more than once.', {
      details: { reason: 'duplicate_parameter', path: 'input' },
    });
  const encoded = (raw[0] ?? '').replace(/\+/g, ' ');
  if (encoded === '') return null;
  const bytes: number[] = [];
  for (let index = 0; index < encoded.length; index += 1) {
    const hex = encoded.slice(index + 1, index + 3);
    if (encoded[index] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...UTF8_ENCODER.encode(encoded[index]));
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * The input text checked under the call's limits: one procedure, its own limits; a batch (`{"0":
 * …, "1": …}`), the widest limits for the whole, then each input against its own procedure's.
 */
async function checkedInputText(
  bytes: Uint8Array,
  call: TTrpcCall,
  contentType: string | null,
): Promise<string> {
  const [limits] = call.limits;
  if (!call.isBatch && limits !== undefined) {
    const { text } = await readJsonBody(bytes, { limits, contentType, yieldTurn: takeCpuTurn });
    return text;
  }
  const widest = widestOf(call.limits);
  const { text, value } = await readJsonBody(bytes, {
    limits: edgeLimits(widest, { maxDepth: widest.maxDepth + 1 }),
    contentType,
    yieldTurn: takeCpuTurn,
    // Checked below, input by input, so the path names the field of its own input.
    textCheckedByRoute: true,
  });
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new AppError('INVALID_REQUEST', 'A batch call carries an object of inputs by position.', {
      details: { reason: 'batch_input', path: '' },
    });
  for (const [key, input] of Object.entries(value)) {
    assertStorableText(key, key);
    assertJsonShape(input, { limits: (/^\d+$/.test(key) ? call.limits[Number(key)] : undefined) ?? widest });
  }
  return text;
}

/** The request tRPC gets: the same, with the checked input (a POST's body, a GET's `input`). */
async function checkedRequestOf(request: Request, url: URL, call: TTrpcCall): Promise<Request> {
  if (call.limits.includes(NO_PROCEDURE)) {
    await request.body?.cancel().catch(() => undefined);
    throw new AppError('ROUTE_NOT_FOUND', 'No procedure of the portal has this name.', {
      details: { path: call.paths.join(',') },
    });
  }
  if (call.paths.length > MAX_BATCH_PROCEDURES) {
    await request.body?.cancel().catch(() => undefined);
    throw new AppError('INVALID_REQUEST', `A batch names at most ${MAX_BATCH_PROCEDURES} procedures.`, {
      details: { reason: 'batch_too_large', limit: MAX_BATCH_PROCEDURES, given: call.paths.length },
    });
  }
  const widest = widestOf(call.limits);
  if (request.method.toUpperCase() === 'GET') {
    const bytes = queryInputBytesOf(url);
    if (bytes === null) return request;
    if (bytes.byteLength > widest.bodyBytes) throw bodyTooLarge(widest.bodyBytes);
    const text = await checkedInputText(bytes, call, null);
    const checked = new URL(url);
    checked.searchParams.set('input', text);
    return new Request(checked, { method: 'GET', headers: request.headers, signal: request.signal });
  }
  const bytes = await readRequestBytes(request, widest);
  const text = await checkedInputText(bytes, call, request.headers.get('content-type'));
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(url, { method: 'POST', headers, body: text, signal: request.signal });
}

/** The edge's refusal as tRPC answers a procedure's AppError: one error per named procedure of a batch. */
function edgeRefusal(error: AppError, call: TTrpcCall): Response {
  const trpcError = toTrpcError(error) as TRPCError;
  const config = appRouter._def._config;
  const items = call.paths.map((path) => ({
    error: getErrorShape({
      config,
      error: trpcError,
      type: 'unknown',
      path,
      input: undefined,
      ctx: undefined,
    }),
  }));
  const body = transformTRPCResponse(config, call.isBatch ? items : (items[0] ?? items));
  return new Response(JSON.stringify(body), {
    status: getHTTPStatusCodeFromError(trpcError),
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** Answers a tRPC request: the rules above, the edge, then the router with a context built for it. */
export async function handleTrpcRequest(
  request: Request,
  options: { publicOrigin: string; createContext: () => Promise<TTrpcContext> },
): Promise<Response> {
  const refused = refusalOf(request, options.publicOrigin);
  if (refused !== null) return refused;
  const url = new URL(request.url);
  const call = callOf(url);
  let checked: Request;
  try {
    checked = await checkedRequestOf(request, url, call);
  } catch (error) {
    if (error instanceof AppError) return edgeRefusal(error, call);
    throw error;
  }
  const response = await fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: checked,
    router: appRouter,
    allowMethodOverride: false,
    createContext: options.createContext,
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`portal: tRPC ${path ?? '?'} failed`, error.cause ?? error);
    },
  });
  response.headers.set('cache-control', 'no-store');
  return response;
}
