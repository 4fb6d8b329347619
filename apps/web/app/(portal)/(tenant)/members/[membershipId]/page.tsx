import { hasCapability } from '@ecf/services';
import { PageHeader, Panel } from '@ecf/ui';
import { ChangeRoleForm, RemoveMemberButton } from '../../../../../components/member-actions.tsx';
import { formatDate } from '../../../../../lib/format.ts';
import { ROLE_LABELS, ZUuid } from '../../../../../lib/schemas.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../server/trpc/server-caller.ts';
import { notFound } from 'next/navigation';

export const metadata = { title: 'Miembro' };

/**
 * One member of the active tenant. Another tenant's membership id is 404, like an id that does not
 * exist (the procedure answers NOT_FOUND; the tenant is the session's).
 */
export default async function MemberPage(props: { params: Promise<{ membershipId: string }> }) {
  const { membershipId } = await props.params;
  const { principal } = await requirePageCapability('members.read');
  if (!ZUuid.safeParse(membershipId).success) notFound();
  const api = await serverApi();
  const member = await orNotFound(api.members.get({ membershipId }));
  const canManage = hasCapability(principal, 'members.manage');
  return (
    <>
      <PageHeader title={member.user.name} description={member.user.email} />
      <Panel title="Datos">
        <dl>
          <dt>Rol</dt>
          <dd>{ROLE_LABELS[member.role]}</dd>
          <dt>Miembro desde</dt>
          <dd>{formatDate(member.since)}</dd>
        </dl>
      </Panel>
      {canManage ? (
        <>
          <Panel title="Cambiar el rol">
            <ChangeRoleForm membershipId={member.id} name={member.user.name} role={member.role} />
          </Panel>
          <Panel title="Quitar de la cuenta">
            <RemoveMemberButton membershipId={member.id} name={member.user.name} />
          </Panel>
        </>
      ) : null}
      <p>
        <a href="/members">Volver a Miembros</a>
      </p>
    </>
  );
}
