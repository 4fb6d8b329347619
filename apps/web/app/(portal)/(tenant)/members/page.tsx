import { EmptyState, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasCapability } from '@ecf/services';
import { InviteMemberForm } from '../../../../components/invite-member-form.tsx';
import { RevokeInvitationButton } from '../../../../components/revoke-invitation-button.tsx';
import { formatShortDate, formatShortDateTime } from '../../../../lib/format.ts';
import { ROLE_LABELS } from '../../../../lib/schemas.ts';
import { requirePageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Miembros' };

/** The tenant's members (everyone sees them); owners invite, and open a member to change or remove. */
export default async function MembersPage() {
  const { principal, tenant } = await requirePageCapability('members.read');
  const canManage = hasCapability(principal, 'members.manage');
  const api = await serverApi();
  const [{ members }, { invitations }] = await Promise.all([
    api.members.list(),
    api.invitations.listPending(),
  ]);
  return (
    <>
      <PageHeader
        title="Miembros"
        description={`Personas con acceso a ${tenant.tradeName ?? tenant.legalName} y su rol.`}
      />
      <Panel title="Miembros de la cuenta">
        <Table
          caption="Miembros de la cuenta"
          captionHidden
          rows={members}
          rowKey={(member) => member.id}
          columns={[
            {
              header: 'Nombre',
              rowHeader: true,
              cell: (member) =>
                canManage ? <a href={`/members/${member.id}`}>{member.user.name}</a> : member.user.name,
            },
            { header: 'Correo electrónico', cell: (member) => member.user.email },
            {
              header: 'Rol',
              cell: (member) => (
                <>
                  {ROLE_LABELS[member.role]}{' '}
                  {member.isYou ? <StatusBadge tone="info">Usted</StatusBadge> : null}
                </>
              ),
            },
            { header: 'Miembro desde', nowrap: true, cell: (member) => formatShortDate(member.since) },
          ]}
        />
      </Panel>
      {canManage ? (
        <Panel title="Invitar a un miembro" id="invitar">
          <InviteMemberForm />
        </Panel>
      ) : null}
      <Panel title="Invitaciones pendientes">
        <Table
          caption="Invitaciones pendientes"
          captionHidden
          rows={invitations}
          rowKey={(invitation) => invitation.id}
          empty={
            canManage ? (
              <EmptyState
                title="No hay invitaciones pendientes."
                action={{ href: '#invitar', label: 'Invitar a un miembro' }}
              >
                Invite a quien vaya a integrar, emitir o revisar comprobantes, con el rol que necesite.
              </EmptyState>
            ) : (
              <EmptyState title="No hay invitaciones pendientes.">
                Un propietario de la cuenta puede invitar a más personas.
              </EmptyState>
            )
          }
          columns={[
            { header: 'Correo electrónico', rowHeader: true, cell: (invitation) => invitation.email },
            { header: 'Rol', cell: (invitation) => ROLE_LABELS[invitation.role] },
            { header: 'Invitó', cell: (invitation) => invitation.invitedBy.name },
            {
              header: 'Vence',
              nowrap: true,
              cell: (invitation) =>
                invitation.expired ? (
                  <StatusBadge tone="warning">Vencida</StatusBadge>
                ) : (
                  formatShortDateTime(invitation.expiresAt)
                ),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (invitation: (typeof invitations)[number]) => (
                      <RevokeInvitationButton invitationId={invitation.id} email={invitation.email} />
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Panel>
    </>
  );
}
