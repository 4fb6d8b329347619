'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './webhooks.module.css';

/**
 * "Reintentar ahora": a queued delivery waiting for its next attempt is sent at once. The server
 * changes it only while it is still queued (one being sent is never sent twice).
 */
export function WebhookRetryNowButton(props: { deliveryId: string; eventType: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const retry = useMutation(trpc.webhooks.retryNow.mutationOptions());
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div>
      <Button
        variant="secondary"
        size="small"
        busy={retry.isPending}
        onClick={() => {
          setMessage(null);
          void retry
            .mutateAsync({ deliveryId: props.deliveryId })
            .then(() => setMessage('Se enviará en unos segundos.'))
            .catch((error: unknown) => {
              const failure = failureOf(error);
              setMessage(
                failure.appCode === 'WEBHOOK_REPLAY_NOT_ALLOWED'
                  ? 'Esta entrega ya no está en espera: se está enviando o ya terminó.'
                  : formMessageOf(failure),
              );
            })
            .finally(() => router.refresh());
        }}
      >
        Reintentar ahora<span className="ecf-visually-hidden"> la entrega {props.eventType}</span>
      </Button>
      <p className={styles.muted} aria-live="polite">
        {message ?? ''}
      </p>
    </div>
  );
}
