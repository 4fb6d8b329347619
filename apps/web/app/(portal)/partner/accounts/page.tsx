import { PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { AccountSearchForm, OffsetPager } from '../../../../components/account-search.tsx';
import { formatShortDateTime } from '../../../../lib/format.ts';
import {
  ACCOUNT_SEARCH_KEYS,
  hrefOf,
  offsetOf,
  paramsOf,
  totalText,
  type TSearchParams,
} from '../../../../lib/list-search.ts';
import { ZAccountSearchText } from '../../../../server/account-search.ts';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { ZListAccountsInput } from '../../../../server/routers/partner/partner-procedures.schema.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuentas fiscales' };

/** The page size of `partner.accounts`. */
const PARTNER_ACCOUNTS_PAGE_SIZE = 100;

const PRODUCTION_LABELS = {
  not_requested: 'No solicitada',
  pending: 'Pendiente',
  active: 'Activa',
  suspended: 'Suspendida',
} as const;

/** `/partner/accounts`: the Partner's fiscal accounts with their eCF authorization (certification: the engine's column). */
export default async function PartnerAccountsPage(props: { searchParams: Promise<TSearchParams> }) {
  const { partner } = await requirePartnerPageCapability('partner.accounts.read');
  // The account search (issue 27): the start of an RNC or part of a name, 100 a page from `offset`.
  const { q, offset: offsetText } = paramsOf(await props.searchParams, ACCOUNT_SEARCH_KEYS);
  const offset = offsetOf(offsetText);
  const input = ZListAccountsInput.safeParse({ q, offset });
  const searchCheck = ZAccountSearchText.safeParse(q);
  const searchError = searchCheck.success
    ? input.success
      ? null
      : 'Revise la búsqueda.'
    : (searchCheck.error.issues[0]?.message ?? 'Revise la búsqueda.');
  const { items, total } =
    input.success && searchError === null
      ? await (await serverApi()).partner.accounts(input.data)
      : { items: [], total: 0 };
  const searched: Record<string, string> = q === undefined ? {} : { q };
  const pageSize = PARTNER_ACCOUNTS_PAGE_SIZE;
  const previousHref =
    offset > 0
      ? hrefOf('/partner/accounts', {
          ...searched,
          ...(offset > pageSize ? { offset: String(offset - pageSize) } : {}),
        })
      : null;
  const nextHref =
    offset + pageSize < total
      ? hrefOf('/partner/accounts', { ...searched, offset: String(offset + pageSize) })
      : null;
  type TAccount = (typeof items)[number];
  return (
    <>
      <PageHeader title="Cuentas fiscales" description={`Clientes de ${partner.name} (${total}).`} />
      <Panel title="Cuentas">
        <AccountSearchForm
          action="/partner/accounts"
          label="Buscar cuentas fiscales"
          value={q}
          error={searchError}
        />
        {searchError === null && q !== undefined ? (
          <p>
            {totalText(
              { count: total, capped: false },
              { one: 'cuenta encontrada', many: 'cuentas encontradas' },
            )}
          </p>
        ) : null}
        <Table
          caption="Cuentas fiscales del Partner"
          captionHidden
          rows={items}
          rowKey={(account) => account.id}
          empty={
            searchError !== null
              ? 'Sin resultados: revise la búsqueda.'
              : q !== undefined
                ? 'Ninguna cuenta coincide con la búsqueda: pruebe con el inicio del RNC u otra parte del nombre.'
                : 'Aún no hay cuentas: créelas con PUT /partner/v1/fiscal-accounts/by-external-id/{id}.'
          }
          columns={[
            {
              header: 'Cliente',
              rowHeader: true,
              cell: (account: TAccount) => (
                <a href={`/partner/accounts/${account.id}`}>{account.legalName}</a>
              ),
            },
            { header: 'RNC', cell: (account: TAccount) => account.rnc },
            { header: 'Id externo', cell: (account: TAccount) => <code>{account.externalTenantId}</code> },
            {
              header: 'Producción (eCF)',
              cell: (account: TAccount) => (
                <StatusBadge tone={account.productionState === 'active' ? 'success' : 'neutral'}>
                  {PRODUCTION_LABELS[account.productionState]}
                </StatusBadge>
              ),
            },
            { header: 'Certificación', cell: (account: TAccount) => account.certification ?? '—' },
            {
              header: 'Creada',
              nowrap: true,
              cell: (account: TAccount) => formatShortDateTime(account.createdAt),
            },
          ]}
        />
        <OffsetPager previousHref={previousHref} nextHref={nextHref} />
      </Panel>
    </>
  );
}
