import { PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasPartnerCapability } from '@ecf/services';
import { PartnerKeyCreateForm, PartnerKeyRevokeButton } from '../../../../components/partner-forms.tsx';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { PARTNER_KEY_PROFILE_LABELS } from '../../../../server/routers/partner/partner.schema.ts';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Claves Partner' };

/** `/partner/keys`: the Partner's keys (X-PARTNER-KEY) with their profile; create one (shown once), revoke. */
export default async function PartnerKeysPage() {
  const { partner } = await requirePartnerPageCapability('partner.keys.read');
  const canManage = hasPartnerCapability(partner.role, 'partner.keys.manage');
  const { keys } = await (await serverApi()).partner.keys();
  type TKey = (typeof keys)[number];
  return (
    <>
      <PageHeader
        title="Claves Partner"
        description="Envíelas en la cabecera X-PARTNER-KEY a /partner/v1/…"
      />
      <Panel title="Claves">
        <Table
          caption="Claves del Partner"
          captionHidden
          rows={keys}
          rowKey={(key) => key.id}
          empty="Aún no hay claves."
          columns={[
            { header: 'Nombre', rowHeader: true, cell: (key: TKey) => key.name },
            { header: 'Prefijo', cell: (key: TKey) => <code>{key.prefix}…</code> },
            { header: 'Perfil', cell: (key: TKey) => PARTNER_KEY_PROFILE_LABELS[key.profile] },
            { header: 'Creada', nowrap: true, cell: (key: TKey) => formatShortDateTime(key.createdAt) },
            {
              header: 'Último uso',
              nowrap: true,
              cell: (key: TKey) => (key.lastUsedAt === null ? 'Nunca' : formatShortDateTime(key.lastUsedAt)),
            },
            {
              header: 'Estado',
              cell: (key: TKey) =>
                key.revokedAt === null ? (
                  <StatusBadge tone="success">Activa</StatusBadge>
                ) : (
                  <StatusBadge tone="neutral">Revocada</StatusBadge>
                ),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (key: TKey) =>
                      key.revokedAt === null ? (
                        <PartnerKeyRevokeButton keyId={key.id} name={key.name} prefix={key.prefix} />
                      ) : null,
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      {canManage ? (
        <Panel title="Crear una clave">
          <PartnerKeyCreateForm />
        </Panel>
      ) : null}
    </>
  );
}
