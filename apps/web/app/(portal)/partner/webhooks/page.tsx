import { PARTNER_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasPartnerCapability } from '@ecf/services';
import {
  PartnerEndpointActions,
  PartnerReplayButton,
  PartnerWebhookCreateForm,
} from '../../../../components/partner-forms.tsx';
import { labelOf, WEBHOOK_FAILURE_TEXTS } from '../../../../lib/catalogue.ts';
import { formatShortDateTime } from '../../../../lib/format.ts';
import {
  DELIVERY_STATUS_LABELS,
  WEBHOOK_STATUS_LABELS,
} from '../../../../server/routers/webhooks/webhook.schema.ts';
import { PARTNER_WEBHOOK_EVENT_TYPE_LABELS } from '../../../../server/routers/partner/partner.schema.ts';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Webhooks Partner' };

/**
 * `/partner/webhooks`: the Partner's endpoints (every environment, partner.webhook.v1 payloads)
 * and the latest deliveries with their attempts; create (the secret shown once), pause, resume,
 * delete, replay a failed delivery.
 */
export default async function PartnerWebhooksPage() {
  const { partner } = await requirePartnerPageCapability('partner.webhooks.read');
  const canManage = hasPartnerCapability(partner.role, 'partner.webhooks.manage');
  const api = await serverApi();
  const [{ endpoints }, deliveries] = await Promise.all([
    api.partner.endpoints(),
    api.partner.deliveries({}),
  ]);
  type TEndpoint = (typeof endpoints)[number];
  type TDelivery = (typeof deliveries.items)[number];
  return (
    <>
      <PageHeader
        title="Webhooks Partner"
        description="Eventos de las cuentas del Partner, firmados (Svc-Signature)."
      />
      <Panel title="Endpoints">
        <Table
          caption="Endpoints del Partner"
          captionHidden
          rows={endpoints}
          rowKey={(endpoint) => endpoint.id}
          empty="Aún no hay endpoints."
          columns={[
            { header: 'Nombre', rowHeader: true, cell: (endpoint: TEndpoint) => endpoint.name },
            { header: 'URL', cell: (endpoint: TEndpoint) => <code>{endpoint.url}</code> },
            {
              header: 'Eventos',
              cell: (endpoint: TEndpoint) =>
                endpoint.eventTypes.length >= PARTNER_WEBHOOK_EVENT_TYPES.length
                  ? 'Todos'
                  : `${endpoint.eventTypes.length} de ${PARTNER_WEBHOOK_EVENT_TYPES.length}`,
            },
            {
              header: 'Estado',
              cell: (endpoint: TEndpoint) => (
                <StatusBadge tone={endpoint.status === 'active' ? 'success' : 'neutral'}>
                  {WEBHOOK_STATUS_LABELS[endpoint.status]}
                </StatusBadge>
              ),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (endpoint: TEndpoint) => (
                      <PartnerEndpointActions
                        endpointId={endpoint.id}
                        name={endpoint.name}
                        url={endpoint.url}
                        status={endpoint.status}
                      />
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      <Panel title="Entregas recientes">
        <Table
          caption="Entregas recientes"
          captionHidden
          rows={deliveries.items}
          rowKey={(delivery) => delivery.id}
          empty="Aún no hay entregas."
          columns={[
            {
              header: 'Evento',
              rowHeader: true,
              cell: (delivery: TDelivery) => (
                <a href={`/partner/webhooks/deliveries/${delivery.id}`}>
                  {PARTNER_WEBHOOK_EVENT_TYPE_LABELS[
                    delivery.eventType as keyof typeof PARTNER_WEBHOOK_EVENT_TYPE_LABELS
                  ] ?? delivery.eventType}
                </a>
              ),
            },
            {
              header: 'Estado',
              cell: (delivery: TDelivery) => (
                <StatusBadge
                  tone={
                    delivery.status === 'succeeded'
                      ? 'success'
                      : delivery.status === 'failed'
                        ? 'danger'
                        : 'neutral'
                  }
                >
                  {DELIVERY_STATUS_LABELS[delivery.status]}
                </StatusBadge>
              ),
            },
            {
              header: 'Intentos',
              cell: (delivery: TDelivery) => `${delivery.attempts} / ${delivery.maxAttempts}`,
            },
            {
              header: 'Motivo',
              cell: (delivery: TDelivery) => labelOf(WEBHOOK_FAILURE_TEXTS, delivery.failureReason),
            },
            {
              header: 'Creada',
              nowrap: true,
              cell: (delivery: TDelivery) => formatShortDateTime(delivery.createdAt),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (delivery: TDelivery) =>
                      delivery.status === 'failed' ? <PartnerReplayButton deliveryId={delivery.id} /> : null,
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      {canManage ? (
        <Panel title="Crear un endpoint">
          <PartnerWebhookCreateForm />
        </Panel>
      ) : null}
    </>
  );
}
