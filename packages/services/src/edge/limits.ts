/**
 * The limits of one route at the request edge, declared once per route in the route tables of
 * every surface (the direct API, the Partner API, the public reception routes, the portal's tRPC
 * procedures and route handlers). The edge enforces them before any use-case runs:
 * - `bodyBytes`: the largest body read (bytes on the wire after transfer decoding); a declared
 *   `Content-Length` over it is refused before reading;
 * - `bodyTimeoutMs`: the time the whole body may take to arrive once the headers are in;
 * - `maxDepth`: nesting of arrays and objects in a JSON body;
 * - `maxStringLength`: the longest JSON string (member names included), in UTF-16 code units;
 * - `maxArrayLength`: the most items of one JSON array.
 * A route with no body (GET, DELETE) declares `NO_BODY_LIMITS`.
 */
export type TEdgeLimits = {
  readonly bodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxDepth: number;
  readonly maxStringLength: number;
  readonly maxArrayLength: number;
};

/** Routes that read no body: anything sent is refused past 64 KiB and never parsed beyond these. */
export const NO_BODY_LIMITS: TEdgeLimits = Object.freeze({
  bodyBytes: 64 * 1024,
  bodyTimeoutMs: 10_000,
  maxDepth: 16,
  maxStringLength: 4_096,
  maxArrayLength: 1_000,
});

/** A small JSON command (names, settings, a URL, a few ids): 64 KiB, 10 s. */
export const SMALL_JSON_LIMITS: TEdgeLimits = Object.freeze({
  bodyBytes: 64 * 1024,
  bodyTimeoutMs: 10_000,
  maxDepth: 16,
  maxStringLength: 16_384,
  maxArrayLength: 1_000,
});

/** Limits of a route, from a base and what the route changes. */
export function edgeLimits(base: TEdgeLimits, change: Partial<TEdgeLimits> = {}): TEdgeLimits {
  return Object.freeze({ ...base, ...change });
}

/** The same limits with the body capped at `maxBytes` (a deployment's `API_BODY_LIMIT_BYTES`). */
export function capBodyBytes(limits: TEdgeLimits, maxBytes: number): TEdgeLimits {
  return limits.bodyBytes <= maxBytes ? limits : edgeLimits(limits, { bodyBytes: maxBytes });
}
