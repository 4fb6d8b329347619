import { PageHeader, Panel, Table } from '@ecf/ui';
import { hasPartnerCapability } from '@ecf/services';
import { PartnerOriginForm, PartnerOriginRemoveButton } from '../../../../components/partner-forms.tsx';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Orígenes del navegador' };

/** `/partner/origins`: the exact HTTPS origins from which the Partner's pages upload certificates. */
export default async function PartnerOriginsPage() {
  const { partner } = await requirePartnerPageCapability('partner.origins.read');
  const canManage = hasPartnerCapability(partner.role, 'partner.origins.manage');
  const { origins } = await (await serverApi()).partner.origins();
  type TOrigin = (typeof origins)[number];
  return (
    <>
      <PageHeader
        title="Orígenes del navegador"
        description="Una sesión de carga de certificados (browserOrigin) solo se acepta desde uno de estos orígenes."
      />
      <Panel title="Orígenes registrados">
        <Table
          caption="Orígenes registrados"
          captionHidden
          rows={origins}
          rowKey={(origin) => origin.id}
          empty="Aún no hay orígenes registrados."
          columns={[
            { header: 'Origen', rowHeader: true, cell: (origin: TOrigin) => <code>{origin.origin}</code> },
            {
              header: 'Registrado',
              nowrap: true,
              cell: (origin: TOrigin) => formatShortDateTime(origin.createdAt),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (origin: TOrigin) => <PartnerOriginRemoveButton origin={origin.origin} />,
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      {canManage ? (
        <Panel title="Registrar un origen">
          <PartnerOriginForm />
        </Panel>
      ) : null}
    </>
  );
}
