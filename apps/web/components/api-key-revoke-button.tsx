'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, ConfirmDialog } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';

/** Revokes a key after confirmation: the REST API refuses it from the next request on. */
export function ApiKeyRevokeButton(props: { apiKeyId: string; name: string; prefix: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Revocar<span className="ecf-visually-hidden"> la clave {props.name}</span>
      </Button>
      <ConfirmDialog
        open={open}
        title={`¿Revocar la clave ${props.name}?`}
        confirmLabel="Revocar clave"
        busy={revoke.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          void revoke.mutateAsync({ apiKeyId: props.apiKeyId }).finally(() => {
            setOpen(false);
            router.refresh();
          });
        }}
      >
        Las integraciones que usan la clave {props.prefix}… dejarán de funcionar de inmediato. No se puede
        deshacer.
      </ConfirmDialog>
    </>
  );
}
