'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './webhooks.module.css';

/** What each button does, says when queued, and says when the server refuses (WEBHOOK_REPLAY_NOT_ALLOWED). */
const ACTIONS = {
  /** A failed delivery back in the queue, same event and attempt counter (one more attempt when all 8 were used). */
  replay: {
    label: 'Reenviar',
    queued: 'Reenvío en cola.',
    refused: 'Solo se reenvían entregas fallidas de un endpoint activo.',
  },
  /** A queued delivery waiting for its next attempt sent at once; changed only while still queued (never sent twice). */
  retryNow: {
    label: 'Reintentar ahora',
    queued: 'Se enviará en unos segundos.',
    refused: 'Esta entrega ya no está en espera: se está enviando o ya terminó.',
  },
} as const;

/** "Reenviar" on a failed delivery, "Reintentar ahora" on one waiting for its next attempt. */
export function WebhookReplayButton(props: {
  deliveryId: string;
  eventType: string;
  action: keyof typeof ACTIONS;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const replay = useMutation(trpc.webhooks.replay.mutationOptions());
  const retryNow = useMutation(trpc.webhooks.retryNow.mutationOptions());
  const mutation = props.action === 'replay' ? replay : retryNow;
  const texts = ACTIONS[props.action];
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div>
      <Button
        variant="secondary"
        size="small"
        busy={mutation.isPending}
        onClick={() => {
          setMessage(null);
          void mutation
            .mutateAsync({ deliveryId: props.deliveryId })
            .then(() => setMessage(texts.queued))
            .catch((error: unknown) => {
              const failure = failureOf(error);
              setMessage(
                failure.appCode === 'WEBHOOK_REPLAY_NOT_ALLOWED' ? texts.refused : formMessageOf(failure),
              );
            })
            .finally(() => router.refresh());
        }}
      >
        {texts.label}
        <span className="ecf-visually-hidden"> la entrega {props.eventType}</span>
      </Button>
      <p className={styles.muted} aria-live="polite">
        {message ?? ''}
      </p>
    </div>
  );
}
