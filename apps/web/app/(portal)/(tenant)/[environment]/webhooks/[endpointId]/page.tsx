import { notFound } from 'next/navigation';
import { Button, LinkButton, PageHeader, Panel, Select, StatusBadge, Table } from '@ecf/ui';
import styles from '../../../../../../components/webhooks.module.css';
import { WebhookStatusBadge } from '../../../../../../components/webhook-endpoint-list.tsx';
import { WebhookReplayButton } from '../../../../../../components/webhook-replay-button.tsx';
import { isEnvironment } from '../../../../../../lib/environments.ts';
import { formatDateTime, formatShortDateTime } from '../../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import {
  DELIVERY_STATUS_LABELS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPE_LABELS,
} from '../../../../../../server/routers/webhooks/webhook.schema.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Endpoint de webhooks' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OUTCOME_LABELS = { succeeded: 'Entregado', retry: 'Se reintentará', failed: 'Fallido' } as const;
const DELIVERY_TONES = { queued: 'info', running: 'info', succeeded: 'success', failed: 'danger' } as const;

type TSearch = { status?: string; cursor?: string };

/**
 * One endpoint and its deliveries log, newest first, 25 per page (cursor and status filter in the
 * URL): each delivery with every attempt (start, duration, result, the receiver's HTTP code, the
 * first bytes of its answer, the error), and a replay button for failed ones while the endpoint is
 * active. Another tenant's id, or one of another environment, is the not-found page.
 */
export default async function WebhookEndpointPage(props: {
  params: Promise<{ environment: string; endpointId: string }>;
  searchParams: Promise<TSearch>;
}) {
  await requirePageCapability('webhooks.read');
  const { environment, endpointId } = await props.params;
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  if (!UUID.test(endpointId)) notFound();
  const search = await props.searchParams;
  const status = (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(search.status ?? '')
    ? (search.status as (typeof WEBHOOK_DELIVERY_STATUSES)[number])
    : null;
  const cursor =
    typeof search.cursor === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(search.cursor) ? search.cursor : null;
  const api = await serverApi();
  const { endpoint, canManage } = await orNotFound(api.webhooks.get({ environment, endpointId }));
  const deliveries = await orNotFound(api.webhooks.deliveries({ environment, endpointId, status, cursor }));
  const base = `/${environment}/webhooks/${endpoint.id}`;
  const nextHref =
    deliveries.nextCursor === null
      ? null
      : `${base}?${new URLSearchParams({ ...(status === null ? {} : { status }), cursor: deliveries.nextCursor }).toString()}`;
  type TDelivery = (typeof deliveries.items)[number];
  type TAttempt = TDelivery['attemptLog'][number];
  return (
    <>
      <PageHeader title={`Endpoint ${endpoint.name}`} description={`Webhooks de ${environment}.`} />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>URL</dt>
          <dd className={styles.code}>{endpoint.url}</dd>
          <dt>Estado</dt>
          <dd>
            <WebhookStatusBadge status={endpoint.status} />
          </dd>
          <dt>Eventos</dt>
          <dd className={styles.code}>{endpoint.eventTypes.join(', ')}</dd>
          <dt>Creado</dt>
          <dd>{formatDateTime(endpoint.createdAt)}</dd>
          {endpoint.previousSecretExpiresAt === null ? null : (
            <>
              <dt>Rotación</dt>
              <dd>El secreto anterior firma hasta {formatDateTime(endpoint.previousSecretExpiresAt)}</dd>
            </>
          )}
          {endpoint.retiredAt === null ? null : (
            <>
              <dt>Eliminado</dt>
              <dd>{formatDateTime(endpoint.retiredAt)}</dd>
            </>
          )}
        </dl>
        <p>
          <a href={`/${environment}/webhooks`}>Volver a los endpoints</a>
        </p>
      </Panel>
      <Panel title="Entregas">
        <form method="get" action={base} aria-label="Filtrar entregas" className={styles.filters}>
          <Select
            label="Estado de la entrega"
            name="status"
            defaultValue={status ?? ''}
            options={[
              { value: '', label: 'Todas' },
              ...WEBHOOK_DELIVERY_STATUSES.map((value) => ({ value, label: DELIVERY_STATUS_LABELS[value] })),
            ]}
          />
          <Button type="submit" variant="secondary">
            Filtrar
          </Button>
          <LinkButton href={`${base}${status === null ? '' : `?status=${status}`}`} variant="ghost">
            Actualizar
          </LinkButton>
        </form>
        {deliveries.items.length === 0 ? (
          <p>
            {status === null ? 'Aún no hay entregas para este endpoint.' : 'No hay entregas con este estado.'}
          </p>
        ) : (
          deliveries.items.map((delivery) => (
            <article
              key={delivery.id}
              className={styles.delivery}
              aria-labelledby={`delivery-${delivery.id}`}
              data-testid="webhook-delivery"
              data-status={delivery.status}
            >
              <div className={styles.deliveryHeader}>
                <h3 id={`delivery-${delivery.id}`} className={styles.deliveryTitle}>
                  <span className={styles.code}>{delivery.eventType}</span>{' '}
                  <StatusBadge tone={DELIVERY_TONES[delivery.status]}>
                    {DELIVERY_STATUS_LABELS[delivery.status]}
                  </StatusBadge>
                </h3>
                {canManage && delivery.status === 'failed' && endpoint.status === 'active' ? (
                  <WebhookReplayButton deliveryId={delivery.id} eventType={delivery.eventType} />
                ) : null}
              </div>
              <p className={styles.muted}>
                {WEBHOOK_EVENT_TYPE_LABELS[delivery.eventType] ?? delivery.eventType} · evento{' '}
                <span className={styles.code}>{delivery.eventId}</span> · creada{' '}
                {formatDateTime(delivery.createdAt)} · intentos {delivery.attempts} de {delivery.maxAttempts}
                {delivery.replayCount > 0
                  ? ` · reenviada ${delivery.replayCount} ${delivery.replayCount === 1 ? 'vez' : 'veces'}`
                  : ''}
                {delivery.failureReason === null ? '' : ` · motivo: ${delivery.failureReason}`}
                {delivery.status === 'queued' && delivery.attempts > 0
                  ? ` · próximo intento ${formatDateTime(delivery.nextAttemptAt)}`
                  : ''}
              </p>
              <Table
                caption={`Intentos de la entrega ${delivery.eventType} del ${formatDateTime(delivery.createdAt)}`}
                captionHidden
                rows={delivery.attemptLog}
                rowKey={(attempt) => String(attempt.attempt)}
                empty="Aún sin intentos."
                columns={[
                  {
                    header: 'Intento',
                    rowHeader: true,
                    numeric: true,
                    cell: (attempt: TAttempt) => attempt.attempt,
                  },
                  {
                    header: 'Inicio',
                    nowrap: true,
                    cell: (attempt: TAttempt) => formatShortDateTime(attempt.startedAt),
                  },
                  {
                    header: 'Duración',
                    numeric: true,
                    cell: (attempt: TAttempt) => `${attempt.durationMs} ms`,
                  },
                  {
                    header: 'Resultado',
                    cell: (attempt: TAttempt) => (
                      <>
                        {OUTCOME_LABELS[attempt.outcome]}
                        {attempt.error === null ? null : <div className={styles.muted}>{attempt.error}</div>}
                      </>
                    ),
                  },
                  {
                    header: 'Código HTTP',
                    numeric: true,
                    cell: (attempt: TAttempt) =>
                      attempt.responseStatus === null ? '—' : attempt.responseStatus,
                  },
                  {
                    header: 'Respuesta (primeros bytes)',
                    cell: (attempt: TAttempt) =>
                      attempt.responseExcerpt === null || attempt.responseExcerpt === '' ? (
                        '—'
                      ) : (
                        <pre className={styles.excerpt}>{attempt.responseExcerpt}</pre>
                      ),
                  },
                ]}
              />
            </article>
          ))
        )}
        {nextHref === null ? null : (
          <p>
            <a href={nextHref}>Entregas anteriores</a>
          </p>
        )}
      </Panel>
    </>
  );
}
