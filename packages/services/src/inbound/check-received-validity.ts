import type { Environment, TDatabase } from '@ecf/db';
import { isTaxauthError, type TResultStatus, type TTaxauthClient } from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import { findInboundForValidityCheck, recordInboundValidity } from '../persistence/index.ts';

import type { TTaxauthValidityStatus } from '@ecf/contract';

/** How long to wait before asking again about an e-CF the tax authority still processes. */
export const VALIDITY_RECHECK_SECONDS = 600;

const VALIDITY_OF: Record<TResultStatus, TTaxauthValidityStatus> = {
  accepted: 'valid',
  accepted_conditional: 'valid_conditional',
  rejected: 'rejected',
  not_found: 'not_found',
  in_process: 'in_process',
  unknown: 'unknown',
};

/** The security code of a signed e-CF: the first 6 characters of its `SignatureValue` (FACTS §3.3). */
export function securityCodeOf(xml: Buffer | null): string | undefined {
  if (xml === null) return undefined;
  const match = /<(?:[\w.-]+:)?SignatureValue\b[^>]*>([^<]*)</.exec(xml.toString('utf8'));
  const value = match?.[1]?.replace(/\s+/g, '');
  return value && value.length >= 6 ? value.slice(0, 6) : undefined;
}

/**
 * Asks Consulta Estado, with the RECEIVING tenant's token, whether a received e-CF is valid, and
 * stores the answer with its time. A transient failure (network, 5xx, authentication unavailable)
 * is thrown: the job is retried. `in_process` is stored and asks for another check later. Rows
 * that are not a received e-CF are left alone.
 */
export async function checkReceivedValidity(
  options: TCertificateSource & {
    database: TDatabase;
    inboundDocumentId: string;
    clientFor: (environment: Environment) => TTaxauthClient;
    now?: () => Date;
  },
): Promise<{ outcome: TTaxauthValidityStatus | 'skipped'; recheckAfterSeconds?: number }> {
  const now = options.now ?? (() => new Date());
  const row = await findInboundForValidityCheck(options.database, options.inboundDocumentId);
  if (!row || row.kind !== 'ecf' || row.status !== 'received') return { outcome: 'skipped' };
  const store = async (
    validity: { status: TTaxauthValidityStatus } & Record<string, string | number | null>,
  ) => {
    const checkedAt = now();
    await recordInboundValidity(options.database, {
      inboundDocumentId: row.id,
      validity: { codigo: null, estado: null, ...validity, checkedAt: checkedAt.toISOString() },
      checkedAt,
    });
  };
  if (row.environment === 'CerteCF') {
    await store({ status: 'not_applicable', reason: 'consultaestado_not_published_in_certecf' });
    return { outcome: 'not_applicable' };
  }
  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: row.tenantId,
    step: 'checkReceivedValidity',
  });
  // Without a certificate the account cannot ask; the job's retries ask again once it has one.
  if (!resolved.ok) throw new Error(`checkReceivedValidity: ${resolved.message}`);
  const taxpayer = options
    .clientFor(row.environment)
    .forTaxpayer({ cacheKey: row.tenantId, certificate: resolved.certificate });
  const securityCode = securityCodeOf(row.xml);
  try {
    const answer = await taxpayer.getEcfStatus({
      rncEmisor: row.issuerRnc,
      encf: row.encf,
      ...(row.buyerRnc ? { rncComprador: row.buyerRnc } : {}),
      ...(securityCode ? { codigoSeguridad: securityCode } : {}),
    });
    const status = VALIDITY_OF[answer.status];
    await store({ status, codigo: answer.codigo ?? null, estado: answer.estado ?? null });
    return status === 'in_process'
      ? { outcome: status, recheckAfterSeconds: VALIDITY_RECHECK_SECONDS }
      : { outcome: status };
  } catch (error) {
    if (!isTaxauthError(error) || error.kind === 'transient') throw error;
    await store({ status: 'check_failed', reason: error.reason, httpStatus: error.status ?? null });
    return { outcome: 'check_failed' };
  }
}
