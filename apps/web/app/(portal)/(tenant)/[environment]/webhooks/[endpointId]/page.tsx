import { notFound } from 'next/navigation';
import { Button, LinkButton, PageHeader, Panel, Select, StatusBadge } from '@ecf/ui';
import { LiveWebhookDeliveries } from '../../../../../../components/live-webhook-deliveries.tsx';
import styles from '../../../../../../components/webhooks.module.css';
import { WebhookStatusBadge } from '../../../../../../components/webhook-endpoint-list.tsx';
import { WebhookReplayButton } from '../../../../../../components/webhook-replay-button.tsx';
import { isExhausted, WebhookAttemptsTable } from '../../../../../../components/webhook-attempts-table.tsx';
import {
  WebhookInboxRequests,
  WebhookSignatureSnippets,
} from '../../../../../../components/webhook-inbox-requests.tsx';
import { labelOf, WEBHOOK_EVENT_LABELS, WEBHOOK_FAILURE_TEXTS } from '../../../../../../lib/catalogue.ts';
import { isEnvironment } from '../../../../../../lib/environments.ts';
import { formatDateTime } from '../../../../../../lib/format.ts';
import { livePollMs } from '../../../../../../server/live-status.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import {
  DELIVERY_STATUS_LABELS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPE_LABELS,
} from '../../../../../../server/routers/webhooks/webhook.schema.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Endpoint de webhooks' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DELIVERY_TONES = { queued: 'info', running: 'info', succeeded: 'success', failed: 'danger' } as const;

type TSearch = { status?: string; cursor?: string };

/** A delivery that used its last attempt without success: its last attempt is not retried. */

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
  // A TesteCF test inbox (issue 27) shows what it received, with the signature checked.
  const inbox =
    environment === 'TesteCF' ? await api.webhooks.inboxRequests({ environment, endpointId }) : null;
  const base = `/${environment}/webhooks/${endpoint.id}`;
  const nextHref =
    deliveries.nextCursor === null
      ? null
      : `${base}?${new URLSearchParams({ ...(status === null ? {} : { status }), cursor: deliveries.nextCursor }).toString()}`;
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
          <dd>{endpoint.eventTypes.map((type) => labelOf(WEBHOOK_EVENT_LABELS, type)).join(', ')}</dd>
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
      {inbox?.isInbox === true ? (
        <>
          <Panel title="Solicitudes recibidas en la bandeja de prueba">
            <WebhookInboxRequests
              inboxUrl={endpoint.url}
              keepDays={inbox.keepDays}
              keepRequests={inbox.keepRequests}
              requests={inbox.requests}
            />
            <p>
              <a href={base}>Actualizar la bandeja</a>
            </p>
          </Panel>
          <Panel title="Verificar la firma en su receptor">
            <WebhookSignatureSnippets />
          </Panel>
        </>
      ) : null}
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
        {cursor === null ? (
          <LiveWebhookDeliveries
            environment={environment}
            endpointId={endpoint.id}
            status={status}
            pollMs={livePollMs()}
          />
        ) : null}
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
                  {labelOf(WEBHOOK_EVENT_LABELS, delivery.eventType)}{' '}
                  <StatusBadge tone={DELIVERY_TONES[delivery.status]}>
                    {DELIVERY_STATUS_LABELS[delivery.status]}
                  </StatusBadge>
                </h3>
                {canManage && delivery.status === 'failed' && endpoint.status === 'active' ? (
                  <WebhookReplayButton
                    action="replay"
                    deliveryId={delivery.id}
                    eventType={labelOf(WEBHOOK_EVENT_LABELS, delivery.eventType)}
                  />
                ) : null}
                {canManage &&
                delivery.status === 'queued' &&
                delivery.attempts > 0 &&
                endpoint.status === 'active' ? (
                  <WebhookReplayButton
                    action="retryNow"
                    deliveryId={delivery.id}
                    eventType={labelOf(WEBHOOK_EVENT_LABELS, delivery.eventType)}
                  />
                ) : null}
              </div>
              <p className={styles.muted}>
                {WEBHOOK_EVENT_TYPE_LABELS[delivery.eventType] ?? ''} (<code>{delivery.eventType}</code>) ·
                evento <span className={styles.code}>{delivery.eventId}</span> · creada{' '}
                {formatDateTime(delivery.createdAt)} · intentos {delivery.attempts} de {delivery.maxAttempts}
                {delivery.replayCount > 0
                  ? ` · reenviada ${delivery.replayCount} ${delivery.replayCount === 1 ? 'vez' : 'veces'}`
                  : ''}
                {delivery.failureReason === null
                  ? ''
                  : ` · motivo: ${labelOf(WEBHOOK_FAILURE_TEXTS, delivery.failureReason)}`}
                {delivery.status === 'queued' && delivery.attempts > 0
                  ? ` · próximo intento ${formatDateTime(delivery.nextAttemptAt)}`
                  : ''}
                {isExhausted(delivery) ? ' · Sin más reintentos' : ''}
              </p>
              <WebhookAttemptsTable
                delivery={delivery}
                eventLabel={labelOf(WEBHOOK_EVENT_LABELS, delivery.eventType)}
                empty="Aún sin intentos."
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
