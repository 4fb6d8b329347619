import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NO_BODY_LIMITS, readJsonBody, takeCpuTurn, type TEdgeLimits } from '@ecf/services';

export { decodeUtf8Body, firstInvalidUtf8Offset } from '@ecf/services';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received (decoded, without a UTF-8 BOM): replay fingerprints and decimal text come from it. */
    rawBody?: string;
  }
  interface FastifyContextConfig {
    /** The route's limits at the edge (plugins/body-limits.ts): every route declares them. */
    edgeLimits?: TEdgeLimits;
    /**
     * A route's own cheap checks of its body's bytes, run before they are decoded and parsed (the
     * submission's line and structure limits): rejects with the route's refusal.
     */
    checkJsonBytes?: (body: Uint8Array) => Promise<void>;
    /** True where the route checks its text itself (the submission: fiscal-core's 422 per field). */
    textCheckedByRoute?: boolean;
  }
}

/**
 * THE parser of every JSON body of the API (direct, Partner): `readJsonBody` of `@ecf/services`
 * (the one edge reader every surface uses) with the route's declared limits and its byte checks.
 * A large body takes a CPU turn between steps so `/healthz` and other requests are served.
 */
export async function parseJsonBody(request: FastifyRequest, body: Buffer): Promise<unknown> {
  const config = request.routeOptions.config;
  const { text, value } = await readJsonBody(body, {
    contentType: request.headers['content-type'],
    limits: config.edgeLimits ?? NO_BODY_LIMITS,
    textCheckedByRoute: config.textCheckedByRoute ?? false,
    yieldTurn: takeCpuTurn,
    ...(config.checkJsonBytes ? { checkBytes: config.checkJsonBytes } : {}),
  });
  request.rawBody = text;
  return value;
}

/** Only JSON is accepted, through {@link parseJsonBody}, unless a route family registers its own parser. */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser<Buffer>('application/json', { parseAs: 'buffer' }, parseJsonBody);
}
