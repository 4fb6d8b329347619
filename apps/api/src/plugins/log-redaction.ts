/** The marker that replaces a credential in logs. */
export const REDACTED = '[REDACTED]';

/** Headers that carry credentials: never written to logs. */
export const REDACTED_HEADERS = [
  'x-api-key',
  'x-partner-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  // The secret the API and the load balancer share with the reception process (reception-proxy.ts).
  'x-reception-proxy-secret',
] as const;

/** Headers that may carry a URL of ours (a browser's Referer from the buyer's PDF, a proxy's original URL). */
const URL_HEADERS = ['referer', 'referrer', 'origin', 'x-original-url', 'x-forwarded-uri', 'x-rewrite-url'];

/**
 * The buyer link `/ri/{token}`: the signed token IS the credential (anyone holding it reads the
 * PDF for 30 days). Matched anywhere in the text, any case, so an absolute URL, a Referer, a path
 * with a double slash or a percent-encoded variant the router would refuse are redacted too.
 */
const CREDENTIAL_PATH = /(\/ri(?:\/|%2f))[^?#\s"]*/gi;

/** Query parameters that are credentials whatever the route (none of ours takes one; a client may still send it). */
const CREDENTIAL_QUERY_NAME =
  /^(?:token|access[-_]?token|id[-_]?token|refresh[-_]?token|api[-_]?key|apikey|x-api-key|key|secret|client[-_]?secret|password|passwd|pwd|signature|sig|auth|authorization|code|session)$/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * A URL (or path) as it may be logged: the buyer link's token and the values of credential-like
 * query parameters replaced with `[REDACTED]`; everything else kept for support.
 */
export function redactUrl(url: string): string {
  const withoutPathToken = url.replace(CREDENTIAL_PATH, `$1${REDACTED}`);
  const queryStart = withoutPathToken.indexOf('?');
  if (queryStart < 0) return withoutPathToken;
  const hashStart = withoutPathToken.indexOf('#', queryStart);
  const query = withoutPathToken.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const redactedQuery = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && CREDENTIAL_QUERY_NAME.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${withoutPathToken.slice(0, queryStart + 1)}${redactedQuery}${hashStart < 0 ? '' : withoutPathToken.slice(hashStart)}`;
}

/** Request headers as they may be logged: credentials replaced, URLs of ours redacted. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const logged: Record<string, unknown> = { ...headers };
  for (const name of REDACTED_HEADERS) if (logged[name] !== undefined) logged[name] = REDACTED;
  for (const name of URL_HEADERS) {
    const value = logged[name];
    if (typeof value === 'string') logged[name] = redactUrl(value);
  }
  return logged;
}

/**
 * pino's `req` serializer: method, redacted URL, redacted headers. Every log line that carries a
 * request (Fastify's "incoming request", router refusals) goes through it; other log lines of ours
 * name a code or a correlation id, never the URL.
 */
export function serializeRequest(request: { method: string; url: string; headers: Record<string, unknown> }) {
  return { method: request.method, url: redactUrl(request.url), headers: redactHeaders(request.headers) };
}
