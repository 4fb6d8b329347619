import { TRPCError } from '@trpc/server';
import { Banner } from '@ecf/ui';
import { AcceptAsCurrentUserButton, AcceptAsNewUserForm } from '../../../../components/accept-invitation.tsx';
import { SignOutButton } from '../../../../components/sign-out-buttons.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { ROLE_LABELS, ZLinkToken } from '../../../../lib/schemas.ts';
import { APP_ERROR_MESSAGES } from '../../../../lib/trpc-errors.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Invitación' };

/** `/invitations/accept?token=...`: the e-mailed invitation link. */
export default async function AcceptInvitationPage(props: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await props.searchParams;
  const parsed = ZLinkToken.safeParse(token);
  const api = await serverApi();
  const invitation = parsed.success
    ? await api.invitations.get({ token: parsed.data }).catch((error: unknown) => {
        if (error instanceof TRPCError)
          return { error: (error.cause as { code?: string } | undefined)?.code ?? error.code };
        throw error;
      })
    : { error: 'INVITATION_INVALID' };
  if ('error' in invitation)
    return (
      <>
        <h1>Invitación</h1>
        <Banner tone="danger" title="No se puede usar esta invitación">
          {APP_ERROR_MESSAGES[invitation.error] ?? APP_ERROR_MESSAGES.INVITATION_INVALID}
        </Banner>
        <p>
          <a href="/sign-in">Ir a iniciar sesión</a>
        </p>
      </>
    );
  const linkToken = parsed.success ? parsed.data : '';
  const here = `/invitations/accept?token=${encodeURIComponent(linkToken)}`;
  return (
    <>
      <h1>Invitación a {invitation.tenantName}</h1>
      <p>
        {invitation.inviterName} le invita como <strong>{ROLE_LABELS[invitation.role]}</strong> con la
        dirección <strong>{invitation.email}</strong>. La invitación vence el{' '}
        {formatDateTime(invitation.expiresAt)} y sirve una sola vez.
      </p>
      {invitation.viewer === 'invited_user' ? (
        <AcceptAsCurrentUserButton token={linkToken} />
      ) : invitation.viewer === 'other_user' ? (
        <>
          <Banner tone="warning" title="Sesión de otra persona">
            Ha iniciado sesión con otra dirección. Cierre la sesión y entre con {invitation.email} para
            aceptar.
          </Banner>
          <SignOutButton callbackUrl={here} />
        </>
      ) : invitation.accountExists ? (
        <p>
          Esa dirección ya tiene una cuenta.{' '}
          <a
            href={`/sign-in?email=${encodeURIComponent(invitation.email)}&callbackUrl=${encodeURIComponent(here)}`}
          >
            Inicie sesión para aceptar
          </a>
          .
        </p>
      ) : (
        <AcceptAsNewUserForm token={linkToken} email={invitation.email} />
      )}
    </>
  );
}
