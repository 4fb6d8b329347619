'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';

/** Support acknowledges an operator notification (idempotent), then the desk reloads. */
export function SupportAcknowledgeButton(props: { notificationId: string; label: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const acknowledge = useMutation(trpc.support.acknowledgeNotification.mutationOptions());
  return (
    <>
      <Button
        variant="secondary"
        size="small"
        busy={acknowledge.isPending}
        onClick={() => {
          setMessage(null);
          acknowledge
            .mutateAsync({ notificationId: props.notificationId })
            .then(() => router.refresh())
            .catch((error: unknown) => setMessage(formMessageOf(failureOf(error))));
        }}
      >
        Marcar como atendida<span className="ecf-visually-hidden"> {props.label}</span>
      </Button>
      {message === null ? null : <span role="alert">{message}</span>}
    </>
  );
}
