import { notFound } from 'next/navigation';
import { PageHeader, Panel, StatusBadge } from '@ecf/ui';
import { hasPartnerCapability } from '@ecf/services';
import { PartnerReplayButton } from '../../../../../../components/partner-forms.tsx';
import { WebhookAttemptsTable } from '../../../../../../components/webhook-attempts-table.tsx';
import { labelOf, WEBHOOK_FAILURE_TEXTS } from '../../../../../../lib/catalogue.ts';
import styles from '../../../../../../components/webhooks.module.css';
import { formatDateTime } from '../../../../../../lib/format.ts';
import { PARTNER_WEBHOOK_EVENT_TYPE_LABELS } from '../../../../../../server/routers/partner/partner.schema.ts';
import {
  DELIVERY_STATUS_LABELS,
  WEBHOOK_STATUS_LABELS,
} from '../../../../../../server/routers/webhooks/webhook.schema.ts';
import { requirePartnerPageCapability } from '../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Entrega de webhook Partner' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DELIVERY_TONES = { queued: 'info', running: 'info', succeeded: 'success', failed: 'danger' } as const;

/**
 * `/partner/webhooks/deliveries/{id}`: one delivery to one of the Partner's endpoints with every
 * attempt (start, duration, outcome, the receiver's HTTP code, the first bytes of its answer, the
 * error), as the tenant page `/{env}/webhooks/{id}` shows them; replay of a failed one while its
 * endpoint is active. Another Partner's id is the not-found page.
 */
export default async function PartnerDeliveryPage(props: { params: Promise<{ deliveryId: string }> }) {
  const { partner } = await requirePartnerPageCapability('partner.webhooks.read');
  const { deliveryId } = await props.params;
  if (!UUID.test(deliveryId)) notFound();
  const { delivery, endpoint } = await orNotFound((await serverApi()).partner.delivery({ deliveryId }));
  const canManage = hasPartnerCapability(partner.role, 'partner.webhooks.manage');
  const label =
    PARTNER_WEBHOOK_EVENT_TYPE_LABELS[delivery.eventType as keyof typeof PARTNER_WEBHOOK_EVENT_TYPE_LABELS] ??
    delivery.eventType;
  return (
    <>
      <PageHeader title="Entrega de webhook" description={label} />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>Estado</dt>
          <dd>
            <StatusBadge tone={DELIVERY_TONES[delivery.status]}>
              {DELIVERY_STATUS_LABELS[delivery.status]}
            </StatusBadge>
          </dd>
          <dt>Evento</dt>
          <dd>
            {label} <span className={styles.code}>({delivery.eventType})</span>
          </dd>
          <dt>Id del evento</dt>
          <dd className={styles.code}>{delivery.eventId}</dd>
          <dt>Endpoint</dt>
          <dd>
            {endpoint === null ? (
              '—'
            ) : (
              <>
                {endpoint.name} <span className={styles.code}>{endpoint.url}</span> (
                {WEBHOOK_STATUS_LABELS[endpoint.status as keyof typeof WEBHOOK_STATUS_LABELS] ??
                  endpoint.status}
                )
              </>
            )}
          </dd>
          <dt>Creada</dt>
          <dd>{formatDateTime(delivery.createdAt)}</dd>
          <dt>Intentos</dt>
          <dd>
            {delivery.attempts} de {delivery.maxAttempts}
            {delivery.replayCount > 0
              ? ` · reenviada ${delivery.replayCount} ${delivery.replayCount === 1 ? 'vez' : 'veces'}`
              : ''}
          </dd>
          {delivery.status === 'queued' && delivery.attempts > 0 ? (
            <>
              <dt>Próximo intento</dt>
              <dd>{formatDateTime(delivery.nextAttemptAt)}</dd>
            </>
          ) : null}
          {delivery.completedAt === null ? null : (
            <>
              <dt>Terminada</dt>
              <dd>{formatDateTime(delivery.completedAt)}</dd>
            </>
          )}
          {delivery.failureReason === null ? null : (
            <>
              <dt>Motivo</dt>
              <dd>{labelOf(WEBHOOK_FAILURE_TEXTS, delivery.failureReason)}</dd>
            </>
          )}
        </dl>
        {canManage && delivery.status === 'failed' && endpoint?.status === 'active' ? (
          <PartnerReplayButton deliveryId={delivery.id} />
        ) : null}
        <p>
          <a href="/partner/webhooks">Volver a los webhooks</a>
        </p>
      </Panel>
      <Panel title="Intentos">
        <WebhookAttemptsTable
          delivery={delivery}
          eventLabel={label}
          empty="Aún sin intentos: la entrega está en cola."
        />
      </Panel>
    </>
  );
}
