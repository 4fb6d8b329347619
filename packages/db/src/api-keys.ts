import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyScope, Environment } from './generated/prisma/enums.ts';

/** Scopes as written in the interface specification, mapped to the database enum. */
export const API_KEY_SCOPES = {
  'ecf:validate': 'ecf_validate',
  'ecf:create': 'ecf_create',
  'ecf:read': 'ecf_read',
  'status:read': 'status_read',
  'tenant:admin': 'tenant_admin',
} as const satisfies Record<string, ApiKeyScope>;

export type TScope = keyof typeof API_KEY_SCOPES;
export const ALL_SCOPES = Object.keys(API_KEY_SCOPES) as TScope[];
/** Scopes of a standard (new) key: everything but account administration. */
export const STANDARD_SCOPES: TScope[] = ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'];

export const ENVIRONMENTS = ['TesteCF', 'CerteCF', 'eCF'] as const satisfies readonly Environment[];

const ENVIRONMENT_TAG: Record<Environment, string> = { TesteCF: 'test', CerteCF: 'cert', eCF: 'live' };

/** Converts a database scope back to its specification spelling. */
export function scopeFromDatabase(scope: ApiKeyScope): TScope {
  const found = (Object.entries(API_KEY_SCOPES) as [TScope, ApiKeyScope][]).find(
    ([, value]) => value === scope,
  );
  if (!found) throw new Error(`unknown scope ${scope}`);
  return found[0];
}

/**
 * A new API key: `ecf_<env>_<32 random base62-ish chars>` (about 190 bits of entropy).
 * Only `hash` is stored; `prefix` (environment tag and the first 8 random characters)
 * is stored in clear so people can tell keys apart in lists and logs.
 */
export function generateApiKey(environment: Environment): { key: string; prefix: string; hash: string } {
  const random = randomBytes(24).toString('base64url');
  const key = `ecf_${ENVIRONMENT_TAG[environment]}_${random}`;
  return {
    key,
    prefix: key.slice(0, `ecf_${ENVIRONMENT_TAG[environment]}_`.length + 8),
    hash: hashApiKey(key),
  };
}

/**
 * SHA-256 of the whole key. A slow password hash is unnecessary here: keys are long random
 * strings, not human passwords, and a fast hash keeps authentication one indexed lookup.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
