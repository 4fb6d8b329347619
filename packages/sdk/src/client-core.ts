/**
 * What every call does, whatever the operation: the URL from the operation's path and the input,
 * the credential, the Idempotency-Key, `Prefer: wait=N`, a timeout per attempt joined to the
 * caller's AbortSignal, retries with exponential backoff and jitter (network errors, 429 and 503,
 * honouring Retry-After; only for the operations the table marks as safe to repeat), the answer
 * read by its kind (JSON, a file, text) and a non-success turned into a typed error.
 *
 * No Node-only API: fetch, AbortSignal, URL, FormData and crypto.randomUUID are in Node 20+, Deno,
 * Bun and browsers.
 */
import { EcfDownload } from './download.ts';
import { apiErrorOf, EcfConnectionError, EcfError, EcfTimeoutError, type EcfApiError } from './errors.ts';

/** One operation of the table (generated/operations.ts). */
export type TOperationSpec = {
  method: string;
  /** The documented path; `{environment}` is the client's environment. */
  path: string;
  auth: 'apiKey' | 'partnerKey' | 'uploadToken' | 'none';
  pathParams: readonly string[];
  query: readonly string[];
  headers: readonly string[];
  body: 'json' | 'multipart' | null;
  response: 'json' | 'binary' | 'text' | 'empty';
  accept: string;
  /** `never`: a repetition could act twice; every other value is safe to send again. */
  retry: 'safe' | 'keyed' | 'replay' | 'read' | 'idempotent' | 'never';
  pagination: 'cursor' | 'offset' | null;
};

/** The certificate upload's input: the session, its token and the PKCS#12 with its password. */
export type TCertificateUpload = {
  uploadId: string;
  uploadToken: string;
  /** The .p12 / .pfx file (a browser's File is a Blob). */
  file: Blob | Uint8Array;
  password: string;
};

export type TClientOptions = {
  /** The service's origin, e.g. `https://api.example.do` (no environment, no trailing path). */
  baseUrl: string;
  /** Attempts after the first for operations that may be repeated (default 2; 0 disables). */
  maxRetries?: number;
  /** Per attempt, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** First backoff step in milliseconds (default 500; doubled each retry, with jitter). */
  retryDelayMs?: number;
  /** The longest wait between attempts (default 30 000); a longer Retry-After is not waited for. */
  maxRetryDelayMs?: number;
  /** Another fetch (a proxy agent, instrumentation); default the global one. */
  fetch?: typeof fetch;
  /** Headers sent with every request (never a credential: those have their own options). */
  headers?: Record<string, string>;
};

export type TRequestOptions = {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** For routes that take one; generated (a UUID) when not given, and kept across retries. */
  idempotencyKey?: string;
  /** `Prefer: wait=N` on the submissions: wait up to N seconds (at most 15) for the printed representation. */
  wait?: number;
  headers?: Record<string, string>;
};

type TCredentials = { apiKey?: string; partnerKey?: string; environment?: string };
type TInput = Record<string, unknown> & { body?: unknown };

const DEFAULTS = { maxRetries: 2, timeoutMs: 30_000, retryDelayMs: 500, maxRetryDelayMs: 30_000 };

export abstract class ClientCore {
  readonly #options: Required<Omit<TClientOptions, 'fetch' | 'headers'>> &
    Pick<TClientOptions, 'fetch' | 'headers'>;
  readonly #credentials: TCredentials;
  protected abstract readonly operations: Readonly<Record<string, TOperationSpec>>;

  protected constructor(options: TClientOptions, credentials: TCredentials) {
    if (typeof options?.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl))
      throw new TypeError('baseUrl must be the http(s) origin of the service.');
    this.#options = { ...DEFAULTS, ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    this.#credentials = credentials;
  }

  /** Sends one operation, retrying it when that is safe, and reads its answer. */
  protected async call(operationId: string, input: TInput, options: TRequestOptions = {}): Promise<unknown> {
    const spec = this.operations[operationId];
    if (!spec) throw new TypeError(`${operationId} is not an operation of this client.`);
    const idempotencyKey = spec.headers.includes('idempotency-key')
      ? (options.idempotencyKey ?? globalThis.crypto.randomUUID())
      : undefined;
    const maxRetries = spec.retry === 'never' ? 0 : (options.maxRetries ?? this.#options.maxRetries);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#send(operationId, spec, input, options, idempotencyKey);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (!(error instanceof EcfError) || !error.retryable || attempt >= maxRetries) throw error;
        await this.#pause(this.#backoff(attempt), options.signal);
        continue;
      }
      if (response.ok) return readSuccess(spec, response);
      const error = await errorOf(operationId, response);
      if (!error.retryable || attempt >= maxRetries || (response.status !== 429 && response.status !== 503))
        throw error;
      const delay = Math.max(this.#backoff(attempt), (error.retryAfterSeconds ?? 0) * 1000);
      if (delay > this.#options.maxRetryDelayMs) throw error;
      await this.#pause(delay, options.signal);
    }
  }

  /** Every item of a listing: cursor pages follow `nextCursor`, offset pages `offset` up to `total`. */
  protected async *iterate(
    operationId: string,
    input: TInput,
    options?: TRequestOptions,
  ): AsyncGenerator<unknown> {
    const spec = this.operations[operationId];
    if (!spec?.pagination) throw new TypeError(`${operationId} is not a listing.`);
    let page: TInput = { ...input };
    for (;;) {
      const answer = (await this.call(operationId, page, options)) as {
        items?: unknown[];
        nextCursor?: string | null;
        total?: number;
        offset?: number;
      };
      const items = answer.items ?? [];
      yield* items;
      if (spec.pagination === 'cursor') {
        if (!answer.nextCursor) return;
        page = { ...page, cursor: answer.nextCursor };
      } else {
        const next = (answer.offset ?? 0) + items.length;
        if (items.length === 0 || next >= (answer.total ?? 0)) return;
        page = { ...page, offset: String(next) };
      }
    }
  }

  async #send(
    operationId: string,
    spec: TOperationSpec,
    input: TInput,
    options: TRequestOptions,
    idempotencyKey: string | undefined,
  ): Promise<Response> {
    const headers = new Headers({ ...this.#options.headers, ...options.headers });
    headers.set(
      'accept',
      spec.response === 'json' || spec.response === 'empty' ? 'application/json' : spec.accept,
    );
    this.#authenticate(operationId, spec, input, headers);
    if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey);
    if (options.wait !== undefined && spec.headers.includes('prefer')) {
      if (!Number.isInteger(options.wait) || options.wait < 0) throw new TypeError('wait is whole seconds.');
      headers.set('prefer', `wait=${options.wait}`);
    }
    let body: RequestInit['body'];
    if (spec.body === 'json') {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(input.body);
    } else if (spec.body === 'multipart') {
      const upload = input as unknown as TCertificateUpload;
      const form = new FormData();
      const file =
        upload.file instanceof Blob ? upload.file : new Blob([upload.file as Uint8Array<ArrayBuffer>]);
      form.set('file', file, 'certificate.p12');
      form.set('password', upload.password);
      body = form;
    }
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await (this.#options.fetch ?? globalThis.fetch)(this.#url(spec, input), {
        method: spec.method,
        headers,
        body,
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted)
        throw new EcfTimeoutError(`${operationId}: no answer within ${timeoutMs} ms`, {
          retryable: true,
          cause: error,
        });
      throw new EcfConnectionError(`${operationId}: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
  }

  #authenticate(operationId: string, spec: TOperationSpec, input: TInput, headers: Headers): void {
    if (spec.auth === 'apiKey') {
      if (!this.#credentials.apiKey) throw new TypeError(`${operationId} needs the client's apiKey.`);
      headers.set('x-api-key', this.#credentials.apiKey);
    } else if (spec.auth === 'partnerKey') {
      if (!this.#credentials.partnerKey) throw new TypeError(`${operationId} needs the client's partnerKey.`);
      headers.set('x-partner-key', this.#credentials.partnerKey);
    } else if (spec.auth === 'uploadToken') {
      headers.set('authorization', `Upload ${textOf(input['uploadToken'], 'uploadToken', spec)}`);
    }
  }

  #url(spec: TOperationSpec, input: TInput): string {
    const path = spec.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
      const value =
        name === 'environment' && !spec.pathParams.includes(name)
          ? this.#credentials.environment
          : input[name];
      return encodeURIComponent(textOf(value, name, spec));
    });
    const query = new URLSearchParams();
    for (const name of spec.query) {
      const value = input[name];
      if (value !== undefined && value !== null) query.set(name, textOf(value, name, spec));
    }
    const search = query.size > 0 ? `?${query}` : '';
    return `${this.#options.baseUrl}${path}${search}`;
  }

  /** Exponential: retryDelayMs × 2^attempt, with full jitter over its upper half. */
  #backoff(attempt: number): number {
    const ceiling = Math.min(this.#options.maxRetryDelayMs, this.#options.retryDelayMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Waits between attempts; the caller's abort ends the wait and rethrows the caller's reason. */
  async #pause(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, milliseconds);
      signal?.addEventListener('abort', done, { once: true });
    });
    signal?.throwIfAborted();
  }
}

/** A path or query parameter as text: a string, number or boolean; anything else is the caller's mistake. */
function textOf(value: unknown, name: string, spec: TOperationSpec): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`${name} is required as text (${spec.method} ${spec.path}).`);
}

async function readSuccess(spec: TOperationSpec, response: Response): Promise<unknown> {
  if (spec.response === 'binary') return new EcfDownload(response);
  if (spec.response === 'text') return response.text();
  if (spec.response === 'empty' || response.status === 204) {
    await response.body?.cancel();
    return undefined;
  }
  return response.json();
}

/** Seconds of a Retry-After header: a number of seconds or an HTTP date. */
export function retryAfterSecondsOf(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

async function errorOf(operationId: string, response: Response): Promise<EcfApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a proxy's page): the status speaks for it
  }
  const envelope = (body ?? {}) as {
    error?: { code?: unknown; message?: unknown; details?: unknown };
    correlationId?: unknown;
  };
  const error = envelope.error ?? {};
  return apiErrorOf({
    status: response.status,
    code: typeof error.code === 'string' ? error.code : `HTTP_${response.status}`,
    message: typeof error.message === 'string' ? error.message : response.statusText || 'no ErrorResponse',
    details:
      typeof error.details === 'object' && error.details !== null
        ? (error.details as Record<string, unknown>)
        : {},
    correlationId:
      typeof envelope.correlationId === 'string'
        ? envelope.correlationId
        : response.headers.get('x-correlation-id'),
    retryAfterSeconds: retryAfterSecondsOf(response.headers.get('retry-after')),
    body,
    operationId,
  });
}
