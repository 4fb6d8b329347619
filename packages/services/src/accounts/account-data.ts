import type { Tenant } from '@ecf/db';
import type { TAccountData } from '@ecf/fiscal-core';

/** The tenant columns the account data is built from (every caller must select all of them). */
export type TAccountDataSource = Pick<
  Tenant,
  | 'rnc'
  | 'legalName'
  | 'tradeName'
  | 'address'
  | 'phones'
  | 'fiscalEmail'
  | 'deferredSendAuthorized'
  | 'paymentTermDays'
>;

/**
 * The account data validation fills the issuer from. The API's emission must build it the same
 * way (one function for both), or a signed document could differ from the validated one. The
 * deferred-send authorization (rule 13: `IndicadorEnvioDiferido` 1 by default) and the payment term
 * (`{{FECHA_LIMITE_PAGO}}`) are the account's settings, changed by its owners in the portal.
 */
export function accountDataOf(tenant: TAccountDataSource): TAccountData {
  return {
    rnc: tenant.rnc,
    legalName: tenant.legalName,
    tradeName: tenant.tradeName ?? undefined,
    address: tenant.address ?? undefined,
    phones: tenant.phones,
    email: tenant.fiscalEmail ?? undefined,
    deferredSendAuthorized: tenant.deferredSendAuthorized,
    paymentTermDays: tenant.paymentTermDays ?? undefined,
  };
}
