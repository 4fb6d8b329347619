/**
 * Tokens per (environment, tenant, certificate), owned by one client instance: never global, never
 * shared across tenants. Single-flight: concurrent callers that find no usable token share one
 * authentication.
 */

/** A bearer token and when we consider it expired (local clock). */
export type TTaxauthToken = {
  token: string;
  /** `expira` as sent. */
  expira: string;
  /** `expedido` as sent, when sent. */
  expedido?: string;
  /** Local time after which the token is not used (issue time + DGII's stated lifetime). */
  expiresAt: Date;
  /** Local time from which a call authenticates again rather than use this token. */
  refreshAt: Date;
};

export class TokenCache {
  private readonly tokens = new Map<string, TTaxauthToken>();
  private readonly pending = new Map<string, Promise<TTaxauthToken>>();

  constructor(private readonly now: () => Date) {}

  /**
   * The cached token while `now < refreshAt`; otherwise one shared authentication. When a refresh
   * fails but the previous token has not expired yet, that token is used (DGII still honours it).
   */
  async get(key: string, authenticate: () => Promise<TTaxauthToken>): Promise<TTaxauthToken> {
    const cached = this.tokens.get(key);
    const nowMs = this.now().getTime();
    if (cached !== undefined && nowMs < cached.refreshAt.getTime()) return cached;
    const inFlight = this.pending.get(key);
    if (inFlight !== undefined) return inFlight;

    const started = (async () => {
      try {
        const fresh = await authenticate();
        this.tokens.set(key, fresh);
        return fresh;
      } catch (error) {
        const previous = this.tokens.get(key);
        if (previous !== undefined && this.now().getTime() < previous.expiresAt.getTime()) return previous;
        throw error;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, started);
    return started;
  }

  /** Drops the token after the tax authority refused it (only if it is still the cached one). */
  invalidate(key: string, token: string): void {
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }

  /** Drops every token whose key satisfies `matches`. */
  invalidateWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.tokens.keys()]) if (matches(key)) this.tokens.delete(key);
  }

  /** Number of cached tokens (for diagnostics and tests). */
  get size(): number {
    return this.tokens.size;
  }
}
