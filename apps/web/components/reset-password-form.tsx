'use client';
import { type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, TextField } from '@ecf/ui';
import { PASSWORD_MIN_LENGTH } from '../lib/schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZCompletePasswordResetInput } from '../server/routers/password/complete-password-reset.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

/** Chooses the new password of a reset link (the token comes from the link, never shown). */
export function ResetPasswordForm(props: { token: string }) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const complete = useMutation(trpc.password.completeReset.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = errors.check(ZCompletePasswordResetInput, {
      token: props.token,
      password: form.get('password'),
    });
    if (input === null) return;
    if (form.get('confirmation') !== input.password) {
      errors.show({ confirmation: 'Las dos contraseñas no coinciden.' });
      return;
    }
    try {
      await complete.mutateAsync(input);
      window.location.assign('/sign-in?reset=1');
    } catch (error) {
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Contraseña nueva"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`Al menos ${PASSWORD_MIN_LENGTH} caracteres.`}
        error={errors.fieldErrors.password ?? errors.fieldErrors.token}
      />
      <TextField
        label="Repita la contraseña"
        name="confirmation"
        type="password"
        autoComplete="new-password"
        required
        error={errors.fieldErrors.confirmation}
      />
      <Button type="submit" busy={complete.isPending}>
        Guardar contraseña
      </Button>
    </form>
  );
}
