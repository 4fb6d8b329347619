import { Banner, EmptyState, PageHeader, Table } from '@ecf/ui';
import { AccountSearchForm, OffsetPager } from '../../../components/account-search.tsx';
import { ChooseTenantButton } from '../../../components/choose-tenant-button.tsx';
import styles from '../../../components/document-pages.module.css';
import {
  ACCOUNT_SEARCH_KEYS,
  hrefOf,
  offsetOf,
  paramsOf,
  totalText,
  type TSearchParams,
} from '../../../lib/list-search.ts';
import { ROLE_LABELS } from '../../../lib/schemas.ts';
import { requirePortalSession } from '../../../server/page-access.ts';
import {
  SUPPORT_TENANT_PAGE_SIZE,
  ZListTenantsInput,
} from '../../../server/routers/support/list-tenants.schema.ts';
import { serverApi } from '../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuentas' };

type TRow = { id: string; name: string; rnc: string; role: string; active: boolean };

/**
 * The accounts (tenants) the user can work in; support: any tenant, found by the start of its RNC
 * or part of its name (issue 27), 50 a page with the total.
 */
export default async function AccountsPage(props: { searchParams: Promise<TSearchParams> }) {
  const session = await requirePortalSession();
  const api = await serverApi();
  let rows: TRow[];
  let support: {
    q: string | undefined;
    error: string | null;
    total: { count: number; capped: boolean };
    previousHref: string | null;
    nextHref: string | null;
  } | null = null;
  if (session.user.isSupport) {
    const { q, offset: offsetText } = paramsOf(await props.searchParams, ACCOUNT_SEARCH_KEYS);
    const offset = offsetOf(offsetText);
    const input = ZListTenantsInput.safeParse({ q, offset });
    const page = input.success
      ? await api.support.tenants(input.data ?? { offset })
      : { tenants: [], total: { count: 0, capped: false } };
    rows = page.tenants.map((tenant) => ({
      ...tenant,
      role: 'Soporte (solo lectura)',
      active: tenant.id === session.activeTenant?.id,
    }));
    const searched: Record<string, string> = q === undefined ? {} : { q };
    support = {
      q,
      error: input.success ? null : (input.error.issues[0]?.message ?? 'Revise la búsqueda.'),
      total: page.total,
      previousHref:
        offset > 0
          ? hrefOf('/accounts', {
              ...searched,
              ...(offset > SUPPORT_TENANT_PAGE_SIZE
                ? { offset: String(offset - SUPPORT_TENANT_PAGE_SIZE) }
                : {}),
            })
          : null,
      nextHref:
        page.total.capped || offset + SUPPORT_TENANT_PAGE_SIZE < page.total.count
          ? hrefOf('/accounts', { ...searched, offset: String(offset + SUPPORT_TENANT_PAGE_SIZE) })
          : null,
    };
  } else
    rows = session.tenants.map((tenant) => ({
      id: tenant.tenantId,
      name: tenant.tradeName ?? tenant.legalName,
      rnc: tenant.rnc,
      role: ROLE_LABELS[tenant.role],
      active: tenant.tenantId === session.activeTenant?.id,
    }));
  const table = (
    <Table
      caption="Cuentas disponibles"
      captionHidden
      rowKey={(row) => row.id}
      rows={rows}
      empty={
        support?.error ? (
          'Sin resultados: revise la búsqueda.'
        ) : support?.q === undefined ? (
          'Aún no hay cuentas.'
        ) : (
          <EmptyState
            title="Ninguna cuenta coincide con la búsqueda."
            action={{ href: '/accounts', label: 'Quitar búsqueda' }}
          >
            Busque por el inicio del RNC o por otra parte del nombre.
          </EmptyState>
        )
      }
      columns={[
        { header: 'Cuenta', cell: (row) => row.name, rowHeader: true },
        { header: 'RNC', nowrap: true, cell: (row) => row.rnc },
        { header: 'Su rol', cell: (row) => row.role },
        {
          header: 'Acción',
          cell: (row) =>
            row.active ? (
              'Cuenta actual'
            ) : (
              <ChooseTenantButton tenantId={row.id} label={`Trabajar en ${row.name}`} />
            ),
        },
      ]}
    />
  );
  return (
    <>
      <PageHeader
        title="Cuentas"
        description={
          session.user.isSupport
            ? 'Como personal de soporte puede consultar cualquier cuenta; cada consulta queda en el registro de auditoría de esa cuenta.'
            : 'Las cuentas de contribuyente a las que pertenece.'
        }
      />
      {support !== null ? (
        <>
          <AccountSearchForm
            action="/accounts"
            label="Buscar cuentas"
            value={support.q}
            error={support.error}
          />
          {support.error === null ? (
            <p className={styles.total}>{totalText(support.total, { one: 'cuenta', many: 'cuentas' })}</p>
          ) : null}
          {table}
          <OffsetPager previousHref={support.previousHref} nextHref={support.nextHref} />
        </>
      ) : rows.length === 0 ? (
        <Banner tone="info" title="Aún no pertenece a ninguna cuenta">
          Pida a un propietario de la cuenta que le invite.
        </Banner>
      ) : (
        table
      )}
    </>
  );
}
