import { LinkButton, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { ExportPanel } from '../../../../components/export-panel.tsx';
import {
  AUDIT_ACTION_LABELS,
  labelOf,
  roleLabelOf,
  SUPPORT_ACTION_LABELS,
  supportViewText,
} from '../../../../lib/catalogue.ts';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { requirePageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Registro de auditoría' };

/**
 * The entry's detail in words: who was invited and with which role, which key, which endpoint,
 * what support read or did. Codes (roles, procedures, actions) go through the catalogue.
 */
function describe(data: Record<string, unknown>, targetId: string | null, action: string): string {
  if (action === 'support.viewed') return supportViewText(targetId);
  if (action === 'support.acted') return labelOf(SUPPORT_ACTION_LABELS, targetId);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const role = text(data.role);
  const previousRole = text(data.previousRole);
  const roleText = role === '' ? '' : roleLabelOf(role);
  const parts = [
    text(data.email),
    previousRole === '' ? roleText : `${roleLabelOf(previousRole)} → ${roleText}`,
    // Keys and webhook endpoints: their name and URL (never a secret or a key).
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
          { header: 'Acción', cell: (item) => labelOf(AUDIT_ACTION_LABELS, item.action) },
          { header: 'Detalle', cell: (item) => describe(item.data, item.targetId, item.action) },
          { header: 'Dirección IP', cell: (item) => item.ip ?? '—' },
        ]}
      />
      {page.nextCursor !== null ? (
        <p>
          <LinkButton href={`/audit-log?cursor=${page.nextCursor}`}>Eventos anteriores</LinkButton>
        </p>
      ) : null}
      <Panel title="Exportar el registro">
        <ExportPanel
          kind="audit"
          actions={Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }))}
        />
      </Panel>
    </>
  );
}
