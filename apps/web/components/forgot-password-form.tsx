'use client';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, TextField } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZRequestPasswordResetInput } from '../server/routers/password/request-password-reset.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [sent, setSent] = useState(false);
  const request = useMutation(trpc.password.requestReset.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = errors.check(ZRequestPasswordResetInput, {
      email: new FormData(event.currentTarget).get('email'),
    });
    if (input === null) return;
    try {
      await request.mutateAsync(input);
      setSent(true);
    } catch (error) {
      errors.fail(error);
    }
  }

  if (sent)
    return (
      <Banner tone="success" title="Revise su correo">
        Si esa dirección tiene una cuenta, le enviamos un enlace para elegir una contraseña nueva. Vence en
        una hora.
      </Banner>
    );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={errors.fieldErrors.email}
      />
      <Button type="submit" busy={request.isPending}>
        Enviar enlace
      </Button>
    </form>
  );
}
