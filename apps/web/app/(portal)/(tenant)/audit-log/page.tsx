import { LinkButton, PageHeader, StatusBadge, Table } from '@ecf/ui';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { requirePageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Registro de auditoría' };

/** What each action means, in the owners' words. */
const ACTION_LABELS: Record<string, string> = {
  'member.invited': 'Invitó a un miembro',
  'member.invitation_revoked': 'Anuló una invitación',
  'member.joined': 'Se unió a la cuenta',
  'member.role_changed': 'Cambió un rol',
  'member.removed': 'Quitó a un miembro',
  'webhook.created': 'Creó un endpoint de webhooks',
  'webhook.updated': 'Cambió un endpoint de webhooks',
  'webhook.retired': 'Eliminó un endpoint de webhooks',
  'webhook.secret_rotated': 'Rotó el secreto de un endpoint',
  'webhook.test_sent': 'Envió una prueba de webhook',
  'webhook.delivery_replayed': 'Reenvió una entrega de webhook',
  'support.viewed': 'Soporte consultó datos',
  'support.acted': 'Soporte realizó una acción',
};

function describe(data: Record<string, unknown>, targetId: string | null, action: string): string {
  if (action === 'support.viewed') return `Consulta: ${targetId ?? ''}`;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const role = text(data.role);
  const previousRole = text(data.previousRole);
  const parts = [
    text(data.email),
    previousRole === '' ? role : `${previousRole} → ${role}`,
    // Webhook endpoints: their name and URL (never a secret).
    text(data.name),
    text(data.url),
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/** The tenant's audit log (owners), newest first, 50 per page; the cursor is in the URL. */
export default async function AuditLogPage(props: { searchParams: Promise<{ cursor?: string }> }) {
  await requirePageCapability('audit.read');
  const { cursor } = await props.searchParams;
  const api = await serverApi();
  const page = await api.audit.list({
    cursor: cursor !== undefined && /^[1-9][0-9]{0,18}$/.test(cursor) ? cursor : null,
  });
  return (
    <>
      <PageHeader
        title="Registro de auditoría"
        description="Quién hizo qué en esta cuenta, incluidas las consultas del personal de soporte. No se puede modificar."
      />
      <Table
        caption="Eventos de la cuenta"
        captionHidden
        rows={page.items}
        rowKey={(item) => item.id}
        empty="Todavía no hay eventos."
        columns={[
          { header: 'Fecha', nowrap: true, cell: (item) => formatShortDateTime(item.createdAt) },
          {
            header: 'Quién',
            rowHeader: true,
            cell: (item) =>
              item.actor === null ? (
                'Sistema'
              ) : (
                <>
                  {item.actor.name} ({item.actor.email}){' '}
                  {item.actor.isSupport ? <StatusBadge tone="warning">Soporte</StatusBadge> : null}
                </>
              ),
          },
          { header: 'Acción', cell: (item) => ACTION_LABELS[item.action] ?? item.action },
          { header: 'Detalle', cell: (item) => describe(item.data, item.targetId, item.action) },
          { header: 'Dirección IP', cell: (item) => item.ip ?? '—' },
        ]}
      />
      {page.nextCursor !== null ? (
        <p>
          <LinkButton href={`/audit-log?cursor=${page.nextCursor}`}>Eventos anteriores</LinkButton>
        </p>
      ) : null}
    </>
  );
}
