import { randomBytes } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import { insertReceptionSeed } from '../persistence/index.ts';

/** How long an issued seed can be signed and posted back. */
export const RECEPTION_SEED_TTL_MS = 2 * 60_000;

/**
 * `GET /fe/autenticacion/api/semilla`: a random seed (48 bytes, base64), stored single-use for
 * {@link RECEPTION_SEED_TTL_MS}, as the tax authority's `SemillaModel` XML (FACTS §1.2, §2).
 */
export async function issueReceptionSeed(options: {
  database: TDatabase;
  environment: Environment;
  now?: () => Date;
}): Promise<{ xml: string; value: string; expiresAt: Date }> {
  const issuedAt = (options.now ?? (() => new Date()))();
  const value = randomBytes(48).toString('base64');
  const expiresAt = new Date(issuedAt.getTime() + RECEPTION_SEED_TTL_MS);
  await insertReceptionSeed(options.database, {
    value,
    environment: options.environment,
    issuedAt,
    expiresAt,
  });
  const xml =
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
    `<valor>${value}</valor><fecha>${seedDateOf(issuedAt)}</fecha></SemillaModel>`;
  return { xml, value, expiresAt };
}

/** .NET round-trip time in Dominican time with the -04:00 offset, as the tax authority writes `fecha`. */
function seedDateOf(date: Date): string {
  const local = new Date(date.getTime() - 4 * 3600_000);
  return `${local.toISOString().slice(0, 19)}.${String(local.getUTCMilliseconds()).padStart(3, '0')}0000-04:00`;
}
