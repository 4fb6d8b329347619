import type { TDatabase } from '@ecf/db';
import { findTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** What a taxpayer declares in the tax authority's application form (step 1 and the URL steps). */
export type TTaxauthRegistration = {
  rnc: string;
  legalName: string;
  tradeName: string | null;
  address: string | null;
  fiscalEmail: string | null;
  phones: string[];
  /** "Tipo de registro": emisor electrónico. */
  registrationType: 'emisor_electronico';
  /** "Tipo de software": bought from a provider (this service). */
  software: { type: 'external_provider'; name: string; version: string };
  provider: { name: string };
  /** "URL Recepción", "URL Aprobación", "URL Autenticación" of each environment (steps 7 and 12). */
  serviceUrls: {
    test: { reception: string; commercialApproval: string; authentication: string };
    production: { reception: string; commercialApproval: string; authentication: string };
  };
};

/**
 * The data the account declares in the tax authority's application (Partner
 * `taxauth-registration`): its identity, the software and its provider, and the service URLs of the
 * test and production environments (this service's reception routes; docs/receiving.md).
 */
export async function getTaxauthRegistration(options: {
  database: TDatabase;
  tenantId: string;
  publicBaseUrl: string;
  software: { name: string; version: string; provider: string };
}): Promise<TTaxauthRegistration> {
  const tenant = await findTenant(options.database, { id: options.tenantId });
  if (tenant === null) throw new AppError('NOT_FOUND', 'No such account.');
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const urls = (environment: string) => ({
    reception: `${base}/${environment}`,
    commercialApproval: `${base}/${environment}`,
    authentication: `${base}/${environment}`,
  });
  return {
    rnc: tenant.rnc,
    legalName: tenant.legalName,
    tradeName: tenant.tradeName,
    address: tenant.address,
    fiscalEmail: tenant.fiscalEmail,
    phones: tenant.phones,
    registrationType: 'emisor_electronico',
    software: { type: 'external_provider', name: options.software.name, version: options.software.version },
    provider: { name: options.software.provider },
    serviceUrls: { test: urls('CerteCF'), production: urls('eCF') },
  };
}
