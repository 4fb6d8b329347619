import { PageHeader, Panel } from '@ecf/ui';
import { WebhookCreateForm } from '../../../../../components/webhook-create-form.tsx';
import { WebhookEndpointList } from '../../../../../components/webhook-endpoint-list.tsx';
import { WebhookInboxCreate } from '../../../../../components/webhook-inbox-create.tsx';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Webhooks' };

/**
 * The tenant's webhook endpoints of one environment (owners and developers manage them; support
 * reads): list with pause/resume, test, secret rotation and deletion, and the create form (the URL
 * checked as typed, the secret shown once). Each endpoint's page has its deliveries log.
 */
export default async function WebhooksPage(props: { params: Promise<{ environment: string }> }) {
  const { environment } = await props.params;
  await requirePageCapability('webhooks.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const { endpoints, eventTypes, canManage } = await (await serverApi()).webhooks.list({ environment });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Avisos firmados a su sistema cuando sus e-CF de ${ENVIRONMENT_LABELS[environment]} cambian de estado o la DGII deja de responder. Cada entrega lleva las cabeceras Svc-Event-Id, Svc-Event-Type y Svc-Signature.`}
      />
      <Panel title="Endpoints">
        <WebhookEndpointList environment={environment} endpoints={endpoints} canManage={canManage} />
      </Panel>
      {canManage && environment === 'TesteCF' ? (
        <Panel title="Bandeja de prueba" id="bandeja-de-prueba">
          <WebhookInboxCreate environment={environment} />
        </Panel>
      ) : null}
      {canManage ? (
        <Panel title="Crear un endpoint" id="crear-endpoint">
          <WebhookCreateForm environment={environment} eventTypes={eventTypes} />
        </Panel>
      ) : null}
    </>
  );
}
