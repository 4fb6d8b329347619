import { createHash } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import { findReceptionToken } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** SHA-256 (hex) of a reception token: the only form in which a token is stored. */
export function receptionTokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The `Authorization: bearer <token>` of a delivery to a tenant that declared authentication
 * (FACTS §2; the scheme in any letter case): a token our seed flow issued in this environment and
 * not expired. 401 `RECEPTION_AUTHENTICATION_REQUIRED` otherwise (`details.reason` `token_missing`
 * or `token_invalid`). The token itself is never logged nor stored.
 */
export async function assertReceptionToken(options: {
  database: TDatabase;
  environment: Environment;
  authorization: string | undefined;
  now: Date;
}): Promise<{ holderId: string }> {
  const match = /^\s*bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i.exec(options.authorization ?? '');
  if (match === null)
    throw new AppError(
      'RECEPTION_AUTHENTICATION_REQUIRED',
      'This receiver requires Authorization: bearer <token> (seed at /fe/autenticacion/api/semilla).',
      { details: { reason: 'token_missing' }, headers: { 'www-authenticate': 'Bearer' } },
    );
  const found = await findReceptionToken(options.database, {
    tokenSha256: receptionTokenSha256(match[1] as string),
    environment: options.environment,
    at: options.now,
  });
  if (found === null)
    throw new AppError('RECEPTION_AUTHENTICATION_REQUIRED', 'The bearer token is unknown or expired.', {
      details: { reason: 'token_invalid' },
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    });
  return { holderId: found.holderId };
}
