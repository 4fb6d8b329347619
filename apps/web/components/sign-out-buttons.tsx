'use client';
/**
 * Signing out: this browser (next-auth's sign-out, which also revokes the session's row), or every
 * browser of the user (the `session.signOutEverywhere` procedure, then this browser's cookie).
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { Button, ConfirmDialog } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';

export function SignOutButton(props: { callbackUrl?: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      size="small"
      busy={busy}
      onClick={() => {
        setBusy(true);
        void signOut({ callbackUrl: props.callbackUrl ?? '/sign-in' });
      }}
    >
      Cerrar sesión
    </Button>
  );
}

export function SignOutEverywhereButton() {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const everywhere = useMutation(trpc.session.signOutEverywhere.mutationOptions());
  return (
    <>
      <Button variant="ghost" size="small" onClick={() => setOpen(true)}>
        Cerrar sesión en todos los dispositivos
      </Button>
      <ConfirmDialog
        open={open}
        title="¿Cerrar todas sus sesiones?"
        confirmLabel="Cerrar todas"
        busy={everywhere.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          everywhere.mutateAsync().then(
            () => signOut({ callbackUrl: '/sign-in' }),
            () => signOut({ callbackUrl: '/sign-in' }),
          );
        }}
      >
        Se cerrará la sesión en este y en todos los demás navegadores donde haya entrado con su cuenta.
      </ConfirmDialog>
    </>
  );
}
