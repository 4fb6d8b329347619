import type { Environment, TDatabase } from '@ecf/db';
import { linkPartnerAccount } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isActiveTaxpayerStatus, lookUpTaxpayer } from '../taxpayer-registry/index.ts';
import { fiscalAccountOf, type TFiscalAccount } from './partner-rules.ts';

/** What a Partner sends to create an account (the profile; `legalName` defaults to the registry's name). */
export type TFiscalAccountInput = {
  rnc: string;
  legalName?: string;
  tradeName?: string;
  fiscalEmail?: string;
  phone?: string;
  address?: string;
  provinceCode?: string;
  municipalityCode?: string;
  printedRepresentationEmail?: { production?: boolean; testecf?: boolean };
};

/** Buyer e-mail environments of a `printedRepresentationEmail` toggle (production is eCF, testecf TesteCF). */
export function buyerEmailEnvironmentsOf(
  toggle: { production?: boolean; testecf?: boolean } | undefined,
  current: readonly Environment[] = [],
): Environment[] {
  const set = new Set<Environment>(current);
  const apply = (on: boolean | undefined, environment: Environment) => {
    if (on === true) set.add(environment);
    if (on === false) set.delete(environment);
  };
  apply(toggle?.production, 'eCF');
  apply(toggle?.testecf, 'TesteCF');
  return (['TesteCF', 'CerteCF', 'eCF'] as const).filter((environment) => set.has(environment));
}

/**
 * `PUT /fiscal-accounts/by-external-id/{externalTenantId}`: the Partner's account for its own id,
 * created when new (`created: true`, 201) or returned (200). The same id with another RNC is 409
 * `ACCOUNT_LINK_CONFLICT`. A new account's RNC must be free (another Partner's account or a direct
 * account holds it: 409 `RNC_NOT_AVAILABLE`, nothing said about whose) and ACTIVE in the tax
 * authority's taxpayer registry (422 `RNC_NOT_IN_TAXAUTH_REGISTRY`, `RNC_NOT_ACTIVE_IN_TAXAUTH` with
 * `details.status`; 503 while no registry was ever loaded).
 */
export async function linkFiscalAccount(options: {
  database: TDatabase;
  partnerId: string;
  externalTenantId: string;
  input: TFiscalAccountInput;
  now?: () => Date;
}): Promise<{ created: boolean; account: TFiscalAccount }> {
  const { input } = options;
  const conflict = (fiscalAccountId: string, rnc: string) =>
    new AppError(
      'ACCOUNT_LINK_CONFLICT',
      `externalTenantId ${options.externalTenantId} is linked to an account with another RNC.`,
      { details: { fiscalAccountId, rnc } },
    );
  const registry = await lookUpTaxpayer({ database: options.database, rnc: input.rnc });
  const attempt = await linkPartnerAccount(options.database, {
    partnerId: options.partnerId,
    externalTenantId: options.externalTenantId,
    rnc: input.rnc,
    legalName:
      input.legalName ?? (registry.loaded && registry.taxpayer !== null ? registry.taxpayer.name : input.rnc),
    tradeName: input.tradeName ?? (registry.loaded ? (registry.taxpayer?.tradeName ?? null) : null),
    address: input.address ?? null,
    phones: input.phone === undefined ? [] : [input.phone],
    fiscalEmail: input.fiscalEmail ?? null,
    provinceCode: input.provinceCode ?? null,
    municipalityCode: input.municipalityCode ?? null,
    buyerEmailEnvironments: buyerEmailEnvironmentsOf(input.printedRepresentationEmail),
    at: (options.now ?? (() => new Date()))(),
    // The registry decides before anything is written; an existing link is answered first.
    admit: () => {
      if (!registry.loaded)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          "The tax authority's taxpayer registry is not loaded yet; a new account cannot be checked.",
          { details: { reason: 'taxpayer_registry_not_loaded' } },
        );
      if (registry.taxpayer === null)
        throw new AppError(
          'RNC_NOT_IN_TAXAUTH_REGISTRY',
          `RNC ${input.rnc} is not in the tax authority's taxpayer registry.`,
        );
      if (!isActiveTaxpayerStatus(registry.taxpayer.status))
        throw new AppError(
          'RNC_NOT_ACTIVE_IN_TAXAUTH',
          `RNC ${input.rnc} is ${registry.taxpayer.status} in the tax authority's taxpayer registry.`,
          { details: { status: registry.taxpayer.status } },
        );
    },
  });
  if (attempt.kind === 'existing') {
    if (attempt.account.rnc !== input.rnc) throw conflict(attempt.account.id, attempt.account.rnc);
    return { created: false, account: fiscalAccountOf(attempt.account) };
  }
  if (attempt.kind === 'rnc_held')
    throw new AppError(
      'RNC_NOT_AVAILABLE',
      `RNC ${input.rnc} is held by another account and cannot be linked.`,
    );
  return { created: true, account: fiscalAccountOf(attempt.account) };
}
