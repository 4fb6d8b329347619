import { Banner, PageHeader, Table } from '@ecf/ui';
import { ChooseTenantButton } from '../../../components/choose-tenant-button.tsx';
import { ROLE_LABELS } from '../../../lib/schemas.ts';
import { requirePortalSession } from '../../../server/page-access.ts';
import { serverApi } from '../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuentas' };

type TRow = { id: string; name: string; rnc: string; role: string; active: boolean };

/** The accounts (tenants) the user can work in; support: every tenant. */
export default async function AccountsPage() {
  const session = await requirePortalSession();
  const api = await serverApi();
  const rows: TRow[] = session.user.isSupport
    ? (await api.support.tenants()).tenants.map((tenant) => ({
        ...tenant,
        role: 'Soporte (solo lectura)',
        active: tenant.id === session.activeTenant?.id,
      }))
    : session.tenants.map((tenant) => ({
        id: tenant.tenantId,
        name: tenant.tradeName ?? tenant.legalName,
        rnc: tenant.rnc,
        role: ROLE_LABELS[tenant.role],
        active: tenant.tenantId === session.activeTenant?.id,
      }));
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
      {rows.length === 0 ? (
        <Banner tone="info" title="Aún no pertenece a ninguna cuenta">
          Pida a un propietario de la cuenta que le invite.
        </Banner>
      ) : (
        <Table
          caption="Cuentas disponibles"
          captionHidden
          rowKey={(row) => row.id}
          rows={rows}
          columns={[
            { header: 'Cuenta', cell: (row) => row.name, rowHeader: true },
            { header: 'RNC', cell: (row) => row.rnc },
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
      )}
    </>
  );
}
