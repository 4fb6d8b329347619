/** Documents the benchmarks submit, so every benchmark measures the same work. */
import { accountDataOf } from '@ecf/services';

/** The account the benchmarks' documents belong to, as validation sees it (its profile fills the issuer). */
export const BENCH_ACCOUNT = accountDataOf({
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
  tradeName: null,
  address: 'Av. Winston Churchill 1099, Santo Domingo',
  phones: [],
  fiscalEmail: null,
  deferredSendAuthorized: false,
  paymentTermDays: null,
});

/** Today's date in Dominican Republic time (UTC-4), `YYYY-MM-DD`. */
export function dominicanToday(): string {
  return new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
}

/** A 10-line E31 in the simplified format with its own eNCF, issued today. */
export function e31(encf: string): string {
  const year = Number(dominicanToday().slice(0, 4));
  return JSON.stringify({
    type: 'E31',
    encf,
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'credit',
    dueDate: dominicanToday(),
    incomeType: '01',
    lines: Array.from({ length: 10 }, (_, index) => ({
      name: `Artículo ${index + 1}`,
      quantity: index + 1,
      unitPrice: '125.50',
      itbisRate: index % 3 === 0 ? 'exempt' : 18,
      itemKind: index % 2 === 0 ? 'good' : 'service',
    })),
  });
}
