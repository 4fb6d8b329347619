'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './webhooks.module.css';

/**
 * Replays a failed delivery: back in the queue with the same event and attempt counter (one more
 * attempt when all 8 were used). The server refuses anything else (WEBHOOK_REPLAY_NOT_ALLOWED).
 */
export function WebhookReplayButton(props: { deliveryId: string; eventType: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const replay = useMutation(trpc.webhooks.replay.mutationOptions());
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div>
      <Button
        variant="secondary"
        size="small"
        busy={replay.isPending}
        onClick={() => {
          setMessage(null);
          void replay
            .mutateAsync({ deliveryId: props.deliveryId })
            .then(() => setMessage('Reenvío en cola.'))
            .catch((error: unknown) => {
              const failure = failureOf(error);
              setMessage(
                failure.appCode === 'WEBHOOK_REPLAY_NOT_ALLOWED'
                  ? 'Solo se reenvían entregas fallidas de un endpoint activo.'
                  : formMessageOf(failure),
              );
            })
            .finally(() => router.refresh());
        }}
      >
        Reenviar<span className="ecf-visually-hidden"> la entrega {props.eventType}</span>
      </Button>
      <p className={styles.muted} aria-live="polite">
        {message ?? ''}
      </p>
    </div>
  );
}
