'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, ConfirmDialog } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';

export function RevokeInvitationButton(props: { invitationId: string; email: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(trpc.invitations.revoke.mutationOptions());
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Anular<span className="ecf-visually-hidden"> la invitación a {props.email}</span>
      </Button>
      <ConfirmDialog
        open={open}
        title="¿Anular la invitación?"
        confirmLabel="Anular invitación"
        busy={revoke.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          void revoke.mutateAsync({ invitationId: props.invitationId }).finally(() => {
            setOpen(false);
            router.refresh();
          });
        }}
      >
        El enlace enviado a {props.email} dejará de servir.
      </ConfirmDialog>
    </>
  );
}
