/**
 * Temporary links to the portal's certification page for a Partner's iframe (Partner
 * `certification-sessions`): a token signed with HMAC-SHA256 that names the account, the exact
 * browser origin allowed to frame it and its expiry; the portal checks it (410
 * `CERTIFICATION_EMBED_EXPIRED` once expired) and answers with `frame-ancestors <origin>`. Nothing is
 * stored: the token is the credential, as the buyer's PDF link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../shared/errors.ts';

/** How long an embed link is valid. */
export const CERTIFICATION_EMBED_SECONDS = 15 * 60;

export type TEmbedClaims = { tenantId: string; origin: string; expiresAt: number };

const encode = (value: string) => Buffer.from(value, 'utf8').toString('base64url');

function signatureOf(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** A token for `tenantId` framed by `origin`, valid {@link CERTIFICATION_EMBED_SECONDS} from `now`. */
export function createCertificationEmbedToken(options: {
  tenantId: string;
  origin: string;
  now: Date;
  secret: string;
  seconds?: number;
}): { token: string; expiresAt: Date } {
  const expiresAt =
    Math.floor(options.now.getTime() / 1000) + (options.seconds ?? CERTIFICATION_EMBED_SECONDS);
  const payload = encode(JSON.stringify({ t: options.tenantId, o: options.origin, e: expiresAt }));
  return {
    token: `${payload}.${signatureOf(payload, options.secret)}`,
    expiresAt: new Date(expiresAt * 1000),
  };
}

/**
 * The claims of a token: NOT_FOUND when it is not one of ours (malformed or forged), 410
 * `CERTIFICATION_EMBED_EXPIRED` when its time passed.
 */
export function checkCertificationEmbedToken(options: {
  token: string;
  now: Date;
  secret: string;
}): TEmbedClaims {
  const invalid = () => new AppError('NOT_FOUND', 'This certification link is not valid.');
  const [payload, signature, extra] = options.token.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined || options.token.length > 2048)
    throw invalid();
  const expected = Buffer.from(signatureOf(payload, options.secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  let claims: { t?: unknown; o?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw invalid();
  }
  if (typeof claims.t !== 'string' || typeof claims.o !== 'string' || typeof claims.e !== 'number')
    throw invalid();
  if (options.now.getTime() / 1000 >= claims.e) {
    throw new AppError('CERTIFICATION_EMBED_EXPIRED', 'This certification link expired: ask for a new one.', {
      details: { expiredAt: new Date(claims.e * 1000).toISOString() },
    });
  }
  return { tenantId: claims.t, origin: claims.o, expiresAt: claims.e };
}
