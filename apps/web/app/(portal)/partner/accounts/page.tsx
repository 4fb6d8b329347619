import { PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuentas fiscales' };

const PRODUCTION_LABELS = {
  not_requested: 'No solicitada',
  pending: 'Pendiente',
  active: 'Activa',
  suspended: 'Suspendida',
} as const;

/** `/partner/accounts`: the Partner's fiscal accounts with their eCF authorization (certification: the engine's column). */
export default async function PartnerAccountsPage() {
  const { partner } = await requirePartnerPageCapability('partner.accounts.read');
  const { items, total } = await (await serverApi()).partner.accounts();
  type TAccount = (typeof items)[number];
  return (
    <>
      <PageHeader title="Cuentas fiscales" description={`Clientes de ${partner.name} (${total}).`} />
      <Panel title="Cuentas">
        <Table
          caption="Cuentas fiscales del Partner"
          captionHidden
          rows={items}
          rowKey={(account) => account.id}
          empty="Aún no hay cuentas: créelas con PUT /partner/v1/fiscal-accounts/by-external-id/{id}."
          columns={[
            { header: 'Cliente', rowHeader: true, cell: (account: TAccount) => account.legalName },
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
      </Panel>
    </>
  );
}
