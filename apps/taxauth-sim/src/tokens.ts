/**
 * Tokens and seeds, stateless so that any simulator process sharing the secret accepts them.
 * The token is the tax authority's JWT (FACTS §1.2): HS256, the holder id in the .NET `name`
 * claim, `iss` DGII.FE, `aud` USUARIOS.DGII.FE, one hour. Two simulator claims are added: the
 * environment it was issued for and the reset epoch (a reset invalidates every earlier token).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export const NAME_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name';
const ISSUER = 'DGII.FE';
const AUDIENCE = 'USUARIOS.DGII.FE';

export type TTokenClaims = {
  rnc: string;
  environment: string;
  epoch: number;
  expiresAt: Date;
  issuedAt: Date;
};

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

function hmac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

/** Issues a token for the holder `rnc` in `environment`. */
export function issueToken(options: {
  secret: string;
  rnc: string;
  environment: string;
  epoch: number;
  now: Date;
  ttlSeconds: number;
}): {
  token: string;
  issuedAt: Date;
  expiresAt: Date;
} {
  const notBefore = Math.floor(options.now.getTime() / 1000);
  const expires = notBefore + options.ttlSeconds;
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({
      [NAME_CLAIM]: options.rnc,
      jti: randomUUID(),
      nbf: notBefore,
      exp: expires,
      iss: ISSUER,
      aud: AUDIENCE,
      sim_env: options.environment,
      sim_epoch: options.epoch,
    }),
  );
  const signature = base64url(hmac(options.secret, `${header}.${payload}`));
  return {
    token: `${header}.${payload}.${signature}`,
    issuedAt: new Date(notBefore * 1000),
    expiresAt: new Date(expires * 1000),
  };
}

/** Verifies signature, issuer, audience and validity window; undefined when the token is not good. */
export function verifyToken(token: string, secret: string, now: Date): TTokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = hmac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Record<string, unknown>;
  try {
    const headerJson = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (headerJson['alg'] !== 'HS256') return undefined;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const seconds = now.getTime() / 1000;
  const { nbf, exp, iss, aud, sim_env: environment, sim_epoch: epoch } = claims;
  const rnc = claims[NAME_CLAIM];
  if (
    typeof nbf !== 'number' ||
    typeof exp !== 'number' ||
    typeof rnc !== 'string' ||
    typeof environment !== 'string' ||
    typeof epoch !== 'number'
  )
    return undefined;
  if (iss !== ISSUER || aud !== AUDIENCE || seconds < nbf - 60 || seconds >= exp) return undefined;
  return { rnc, environment, epoch, issuedAt: new Date(nbf * 1000), expiresAt: new Date(exp * 1000) };
}

/**
 * A seed value: random bytes, the issue time and the environment, authenticated with the secret,
 * so validarsemilla can tell its own recent seeds from anything else without storing them.
 */
export function createSeedValue(secret: string, environment: string, now: Date): string {
  const body = `${randomBytes(24).toString('base64')}|${now.getTime()}|${environment}`;
  return Buffer.from(`${body}|${hmac(secret, body).toString('base64')}`).toString('base64');
}

/** Whether `value` is a seed this simulator issued for `environment` less than `maxAgeMs` ago. */
export function isSeedValueValid(
  value: string,
  secret: string,
  environment: string,
  now: Date,
  maxAgeMs: number,
): boolean {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const parts = decoded.split('|');
  if (parts.length !== 4) return false;
  const [random, issued, seedEnvironment, mac] = parts as [string, string, string, string];
  const expected = hmac(secret, `${random}|${issued}|${seedEnvironment}`);
  const given = Buffer.from(mac, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const age = now.getTime() - Number(issued);
  return seedEnvironment === environment && age >= -60_000 && age <= maxAgeMs;
}

/** `yyyy-MM-ddTHH:mm:ssZ` (FACTS §1.2). */
export function formatTokenDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
