'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, CopyButton } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './webhooks.module.css';

/**
 * "Crear bandeja de prueba" (TesteCF): an endpoint whose URL is the service's own test inbox. The
 * answer shows the inbox address and the signing secret once, and links to the inbox's page, where
 * what it receives is shown with the signature checked.
 */
export function WebhookInboxCreate(props: { environment: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.webhooks.createInbox.mutationOptions());
  const [created, setCreated] = useState<{ id: string; url: string; secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <p>
        Una bandeja de prueba es un endpoint cuya URL atiende este mismo servicio: recibe los avisos de
        TesteCF como lo haría su sistema y le muestra cada solicitud con sus cabeceras, el cuerpo y la
        comprobación de la firma. Sirve para ver un webhook real antes de escribir su receptor.
      </p>
      <div className={styles.actions}>
        <Button
          busy={create.isPending}
          onClick={() => {
            setError(null);
            void create
              .mutateAsync({ environment: props.environment as 'TesteCF' })
              .then((answer) => {
                setCreated({ id: answer.endpoint.id, url: answer.inboxUrl, secret: answer.signingSecret });
                router.refresh();
              })
              .catch((failure: unknown) => setError(formMessageOf(failureOf(failure))));
          }}
        >
          Crear bandeja de prueba
        </Button>
      </div>
      {error === null ? null : (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {created === null ? null : (
        <Banner tone="success" title="Bandeja de prueba creada">
          <p>
            Dirección de la bandeja: <span className={styles.code}>{created.url}</span>
          </p>
          <p>Secreto de firma (no se volverá a mostrar; la bandeja comprueba la firma por usted):</p>
          <div className={styles.secret}>
            <code className={styles.secretValue} data-testid="new-inbox-secret">
              {created.secret}
            </code>
            <CopyButton value={created.secret} label="Copiar secreto" copiedLabel="Secreto copiado" />
          </div>
          <p>
            <a href={`/${props.environment}/webhooks/${created.id}`}>Abrir la bandeja de prueba</a>
          </p>
        </Banner>
      )}
    </div>
  );
}
