'use client';
/**
 * Accepting an invitation link: a person without an account chooses a name and password (the
 * account and membership are made together, then they are signed in with that password); a signed-in
 * user with the invited address accepts with one button.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { Banner, Button, TextField } from '@ecf/ui';
import { PASSWORD_MIN_LENGTH } from '../lib/schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZAcceptAsNewUserInput } from '../server/routers/invitations/accept-as-new-user.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

export function AcceptAsNewUserForm(props: { token: string; email: string }) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [busy, setBusy] = useState(false);
  const accept = useMutation(trpc.invitations.acceptAsNewUser.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = errors.check(ZAcceptAsNewUserInput, {
      token: props.token,
      name: form.get('name'),
      password: form.get('password'),
    });
    if (input === null) return;
    if (form.get('confirmation') !== input.password) {
      errors.show({ confirmation: 'Las dos contraseñas no coinciden.' });
      return;
    }
    setBusy(true);
    try {
      const { email } = await accept.mutateAsync(input);
      const signedIn = await signIn('credentials', { redirect: false, email, password: input.password });
      window.location.assign(
        signedIn?.ok === true ? '/' : `/sign-in?joined=1&email=${encodeURIComponent(email)}`,
      );
    } catch (error) {
      setBusy(false);
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        value={props.email}
        readOnly
        autoComplete="username"
      />
      <TextField label="Su nombre" name="name" autoComplete="name" required error={errors.fieldErrors.name} />
      <TextField
        label="Contraseña"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`Al menos ${PASSWORD_MIN_LENGTH} caracteres.`}
        error={errors.fieldErrors.password}
      />
      <TextField
        label="Repita la contraseña"
        name="confirmation"
        type="password"
        autoComplete="new-password"
        required
        error={errors.fieldErrors.confirmation}
      />
      <Button type="submit" busy={busy}>
        Crear cuenta y aceptar
      </Button>
    </form>
  );
}

export function AcceptAsCurrentUserButton(props: { token: string }) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const accept = useMutation(trpc.invitations.acceptAsCurrentUser.mutationOptions());
  return (
    <div>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Button
        busy={accept.isPending}
        onClick={() => {
          accept.mutateAsync({ token: props.token }).then(
            () => window.location.assign('/'),
            (error: unknown) => errors.fail(error),
          );
        }}
      >
        Aceptar la invitación
      </Button>
    </div>
  );
}
