'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, Select, TextField } from '@ecf/ui';
import { MEMBER_ROLES, ROLE_LABELS } from '../lib/schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZCreateInvitationInput } from '../server/routers/invitations/create-invitation.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

/** Owners invite an address with a role; the link goes to that mailbox only. */
export function InviteMemberForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invite = useMutation(trpc.invitations.create.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const input = errors.check(ZCreateInvitationInput, { email: form.get('email'), role: form.get('role') });
    if (input === null) return;
    try {
      const { invitation } = await invite.mutateAsync(input);
      setSentTo(invitation.email);
      formElement.reset();
      router.refresh();
    } catch (error) {
      setSentTo(null);
      errors.fail(error, { ALREADY_MEMBER: 'email' });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Invitar a un miembro">
      {sentTo ? (
        <Banner tone="success">
          Invitación enviada a {sentTo}. El enlace vence en 7 días y sirve una sola vez.
        </Banner>
      ) : null}
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        autoComplete="off"
        required
        error={errors.fieldErrors.email}
      />
      <Select
        label="Rol"
        name="role"
        defaultValue="developer"
        options={MEMBER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
        error={errors.fieldErrors.role}
      />
      <Button type="submit" busy={invite.isPending}>
        Enviar invitación
      </Button>
    </form>
  );
}
