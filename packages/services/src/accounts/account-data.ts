import type { Tenant } from '@ecf/db';
import type { TAccountData } from '@ecf/fiscal-core';

/**
 * The account data validation fills the issuer from. The API's emission must build it the same
 * way (one function for both), or a signed document could differ from the validated one.
 */
export function accountDataOf(
  tenant: Pick<Tenant, 'rnc' | 'legalName' | 'tradeName' | 'address' | 'phones' | 'fiscalEmail'>,
): TAccountData {
  return {
    rnc: tenant.rnc,
    legalName: tenant.legalName,
    tradeName: tenant.tradeName ?? undefined,
    address: tenant.address ?? undefined,
    phones: tenant.phones,
    email: tenant.fiscalEmail ?? undefined,
    // Not modelled on the tenant yet: no deferred-send authorization, no default payment term.
    deferredSendAuthorized: false,
  };
}
