import { randomBytes } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import { verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import { consumeReceptionSeed, insertReceptionToken } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { metered, type TCpuMeter } from './cpu-budget.ts';
import { decodeDeliveredXml, readDeliveredLeaves } from './reception-model.ts';
import { receptionTokenSha256 } from './reception-token.ts';

/** How long a reception token is valid. */
export const RECEPTION_TOKEN_TTL_MS = 60 * 60_000;

function refused(reason: string, message: string): AppError {
  return new AppError('INVALID_REQUEST', message, { details: { reason, field: 'xml' } });
}

/** `yyyy-MM-ddTHH:mm:ssZ` (FACTS §2: token dates are UTC). */
function tokenDateOf(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * `POST /fe/autenticacion/api/validacioncertificado`: the signed seed (multipart `xml`) → a token.
 * The XML must be a `SemillaModel` valid against its XSD, signed (XMLDSig, verified on the bytes)
 * by a certificate that names its holder (RNC/cédula) and is valid now; its `valor` a seed we
 * issued in this environment, unexpired and unused (it is used now, once). 400 `INVALID_REQUEST`
 * otherwise, `details.reason`: `xml_not_seed`, `seed_xsd_invalid`, `signature_invalid`,
 * `certificate_holder_missing`, `certificate_not_valid_now`, `seed_unknown`, `seed_expired`,
 * `seed_already_used`. The token (32 random bytes, base64url) is valid 1 hour; only its SHA-256 is stored.
 */
export async function validateReceptionCertificate(options: {
  database: TDatabase;
  environment: Environment;
  xml: Uint8Array;
  xsd: TXsdValidators;
  now?: () => Date;
  /** Receives the CPU milliseconds of the expensive steps (the route charges the sender with them). */
  cpuMeter?: TCpuMeter;
}): Promise<{ token: string; expira: string; expedido: string; holderId: string }> {
  const now = options.now ?? (() => new Date());
  const meter = options.cpuMeter;
  const text = metered(meter, () => decodeDeliveredXml(options.xml));
  const { root, leaves } = metered(meter, () => readDeliveredLeaves(text));
  const value = leaves.get('valor');
  if (root !== 'SemillaModel' || value === undefined || value === '')
    throw refused('xml_not_seed', 'Send the signed SemillaModel of /fe/autenticacion/api/semilla.');
  const schema = metered(meter, () => options.xsd.validateXml(text, 'SemillaModel'));
  if (!schema.success)
    throw refused('seed_xsd_invalid', 'The signed seed does not match the SemillaModel schema.');
  const signature = metered(meter, () => verifyXmlSignature(text));
  if (!signature.valid)
    throw refused('signature_invalid', `The seed's signature is not valid (${signature.reason}).`);
  const holderId = signature.certificate.holderId;
  if (holderId === undefined || !/^[A-Za-z0-9]{1,20}$/.test(holderId))
    throw refused(
      'certificate_holder_missing',
      'The signing certificate names no holder (subject serialNumber).',
    );
  const at = now();
  if (signature.certificate.validFrom > at || signature.certificate.validTo < at)
    throw refused('certificate_not_valid_now', 'The signing certificate is not valid at this time.');
  const consumed = await consumeReceptionSeed(options.database, {
    value,
    environment: options.environment,
    at,
  });
  if (consumed !== 'used') {
    const messages = {
      unknown: 'This seed was not issued by this receiver.',
      expired: 'The seed expired; ask for a new one.',
      already_used: 'The seed was already used; ask for a new one.',
    } as const;
    throw refused(`seed_${consumed}`, messages[consumed]);
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(at.getTime() + RECEPTION_TOKEN_TTL_MS);
  await insertReceptionToken(options.database, {
    tokenSha256: receptionTokenSha256(token),
    environment: options.environment,
    holderId,
    issuedAt: at,
    expiresAt,
  });
  return { token, expira: tokenDateOf(expiresAt), expedido: tokenDateOf(at), holderId };
}
