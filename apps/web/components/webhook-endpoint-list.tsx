'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog, CopyButton, EmptyState, Select, StatusBadge, Table } from '@ecf/ui';
import type { z } from 'zod';
import { labelOf, WEBHOOK_EVENT_LABELS } from '../lib/catalogue.ts';
import type { TEnvironment } from '../lib/environments.ts';
import { formatDateTime, formatShortDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { WEBHOOK_OVERLAP_CHOICES } from '../server/routers/webhooks/rotate-webhook-secret.schema.ts';
import { WEBHOOK_STATUS_LABELS, type ZWebhookEndpoint } from '../server/routers/webhooks/webhook.schema.ts';
import styles from './webhooks.module.css';

type TEndpoint = z.infer<typeof ZWebhookEndpoint>;

const OVERLAP_LABELS: Record<(typeof WEBHOOK_OVERLAP_CHOICES)[number], string> = {
  0: 'Ninguno: el secreto anterior deja de firmar ya',
  3600: '1 hora',
  86_400: '24 horas',
  604_800: '7 días',
};

/** The portal's words for the conflicts these actions may meet. */
const CONFLICT_MESSAGES: Record<string, string> = {
  WEBHOOK_ENDPOINT_RETIRED: 'Este endpoint fue eliminado: ya no se puede cambiar.',
  WEBHOOK_ROTATION_IN_PROGRESS:
    'Hay una rotación en curso: espere a que el secreto anterior deje de firmar para rotar otra vez.',
};

export function WebhookStatusBadge(props: { status: TEndpoint['status'] }) {
  const tone = props.status === 'active' ? 'success' : props.status === 'paused' ? 'warning' : 'neutral';
  return <StatusBadge tone={tone}>{WEBHOOK_STATUS_LABELS[props.status]}</StatusBadge>;
}

/**
 * The environment's endpoints with their actions (owners and developers): pause or resume, send a
 * test, rotate the secret (the new one shown once, the previous one signing for the chosen
 * window), delete (retire, after confirmation). Support sees the list without actions.
 */
export function WebhookEndpointList(props: {
  environment: TEnvironment;
  endpoints: TEndpoint[];
  canManage: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [notice, setNotice] = useState<{
    tone: 'success' | 'danger' | 'info';
    text: string;
    secret?: { value: string; name: string };
  } | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'rotate' | 'retire'; endpoint: TEndpoint } | null>(null);
  const [overlap, setOverlap] = useState<number>(86_400);
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const sendTest = useMutation(trpc.webhooks.sendTest.mutationOptions());
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions());
  const retire = useMutation(trpc.webhooks.retire.mutationOptions());

  function failed(error: unknown) {
    const failure = failureOf(error);
    setNotice({
      tone: 'danger',
      text:
        (failure.appCode === null ? undefined : CONFLICT_MESSAGES[failure.appCode]) ?? formMessageOf(failure),
    });
  }

  async function run(work: () => Promise<void>) {
    setNotice(null);
    try {
      await work();
    } catch (error) {
      failed(error);
    } finally {
      router.refresh();
    }
  }

  const actions = (endpoint: TEndpoint) =>
    endpoint.status === 'retired' ? null : (
      <div className={styles.actions}>
        <Button
          variant="secondary"
          size="small"
          busy={update.isPending && update.variables.endpointId === endpoint.id}
          onClick={() =>
            void run(async () => {
              const next = endpoint.status === 'active' ? 'paused' : 'active';
              await update.mutateAsync({ endpointId: endpoint.id, status: next });
              setNotice({
                tone: 'success',
                text:
                  next === 'paused'
                    ? `«${endpoint.name}» quedó en pausa: sus entregas esperan hasta reanudarlo.`
                    : `«${endpoint.name}» se reanudó: sus entregas pendientes continúan.`,
              });
            })
          }
        >
          {endpoint.status === 'active' ? 'Pausar' : 'Reanudar'}
          <span className="ecf-visually-hidden"> {endpoint.name}</span>
        </Button>
        <Button
          variant="secondary"
          size="small"
          busy={sendTest.isPending && sendTest.variables.endpointId === endpoint.id}
          onClick={() =>
            void run(async () => {
              await sendTest.mutateAsync({ endpointId: endpoint.id });
              setNotice({
                tone: 'success',
                text:
                  endpoint.status === 'active'
                    ? `Prueba en cola para «${endpoint.name}»: véala en sus entregas.`
                    : `Prueba en cola para «${endpoint.name}»: se enviará al reanudarlo.`,
              });
            })
          }
        >
          Enviar prueba<span className="ecf-visually-hidden"> a {endpoint.name}</span>
        </Button>
        <Button variant="secondary" size="small" onClick={() => setDialog({ kind: 'rotate', endpoint })}>
          Rotar secreto<span className="ecf-visually-hidden"> de {endpoint.name}</span>
        </Button>
        <Button variant="danger" size="small" onClick={() => setDialog({ kind: 'retire', endpoint })}>
          Eliminar<span className="ecf-visually-hidden"> {endpoint.name}</span>
        </Button>
      </div>
    );

  return (
    <>
      {notice ? (
        <Banner
          tone={notice.tone}
          title={notice.secret ? `Secreto nuevo de «${notice.secret.name}»` : undefined}
        >
          <p>{notice.text}</p>
          {notice.secret ? (
            <div className={styles.secret}>
              <code className={styles.secretValue} data-testid="rotated-webhook-secret">
                {notice.secret.value}
              </code>
              <CopyButton value={notice.secret.value} label="Copiar secreto" copiedLabel="Secreto copiado" />
            </div>
          ) : null}
        </Banner>
      ) : null}
      <Table
        caption={`Endpoints de webhooks de ${props.environment}`}
        captionHidden
        rows={props.endpoints}
        rowKey={(endpoint) => endpoint.id}
        empty={
          props.canManage ? (
            <EmptyState
              title="Aún no hay endpoints en este ambiente."
              action={{ href: '#crear-endpoint', label: 'Agregue un endpoint' }}
            >
              Un endpoint recibe un aviso firmado cada vez que un e-CF cambia de estado.
            </EmptyState>
          ) : (
            <EmptyState title="Aún no hay endpoints en este ambiente.">
              Un propietario o un desarrollador de la cuenta puede agregarlos.
            </EmptyState>
          )
        }
        columns={[
          {
            header: 'Nombre',
            rowHeader: true,
            cell: (endpoint: TEndpoint) => (
              <Link href={`/${props.environment}/webhooks/${endpoint.id}`}>{endpoint.name}</Link>
            ),
          },
          {
            header: 'URL',
            cell: (endpoint: TEndpoint) => <span className={styles.code}>{endpoint.url}</span>,
          },
          {
            header: 'Eventos',
            cell: (endpoint: TEndpoint) =>
              endpoint.eventTypes.map((type) => labelOf(WEBHOOK_EVENT_LABELS, type)).join(', '),
          },
          {
            header: 'Estado',
            cell: (endpoint: TEndpoint) => (
              <>
                <WebhookStatusBadge status={endpoint.status} />
                {endpoint.previousSecretExpiresAt === null ? null : (
                  <div className={styles.muted}>
                    Secreto anterior válido hasta {formatDateTime(endpoint.previousSecretExpiresAt)}
                  </div>
                )}
              </>
            ),
          },
          {
            header: 'Creado',
            nowrap: true,
            cell: (endpoint: TEndpoint) => formatShortDateTime(endpoint.createdAt),
          },
          ...(props.canManage ? [{ header: 'Acciones', cell: actions }] : []),
        ]}
      />
      <ConfirmDialog
        open={dialog?.kind === 'rotate'}
        title={`¿Rotar el secreto de ${dialog?.endpoint.name ?? ''}?`}
        confirmLabel="Rotar secreto"
        tone="primary"
        busy={rotate.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          const endpoint = dialog?.endpoint;
          if (endpoint === undefined) return;
          void run(async () => {
            try {
              const answer = await rotate.mutateAsync({ endpointId: endpoint.id, overlapSeconds: overlap });
              setNotice({
                tone: 'success',
                text: 'Cópielo ahora e instálelo en su receptor: no se volverá a mostrar.',
                secret: { value: answer.signingSecret, name: endpoint.name },
              });
            } finally {
              setDialog(null);
            }
          });
        }}
      >
        <p>
          Se genera un secreto nuevo que firma desde ahora. Mientras dure la ventana, cada entrega lleva
          también la firma del secreto anterior, para que pueda cambiarlo en su receptor sin rechazar nada.
        </p>
        <Select
          label="El secreto anterior sigue firmando"
          name="overlapSeconds"
          value={String(overlap)}
          onChange={(event) => setOverlap(Number(event.target.value))}
          options={WEBHOOK_OVERLAP_CHOICES.map((seconds) => ({
            value: String(seconds),
            label: OVERLAP_LABELS[seconds],
          }))}
        />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog?.kind === 'retire'}
        title={`¿Eliminar el endpoint ${dialog?.endpoint.name ?? ''}?`}
        confirmLabel="Eliminar endpoint"
        busy={retire.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          const endpoint = dialog?.endpoint;
          if (endpoint === undefined) return;
          void run(async () => {
            try {
              const answer = await retire.mutateAsync({ endpointId: endpoint.id });
              setNotice({
                tone: 'info',
                text:
                  answer.failedDeliveries === 0
                    ? `«${endpoint.name}» fue eliminado. Su historial de entregas se conserva.`
                    : `«${endpoint.name}» fue eliminado; ${answer.failedDeliveries} entregas en cola quedaron fallidas. Su historial se conserva.`,
              });
            } finally {
              setDialog(null);
            }
          });
        }}
      >
        No recibirá más eventos y no se puede deshacer. Las entregas en cola quedarán fallidas; el historial
        se conserva.
      </ConfirmDialog>
    </>
  );
}
