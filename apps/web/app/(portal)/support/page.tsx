import { forbidden } from 'next/navigation';
import { Banner, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { NextAttemptCountdown } from '../../../components/live-status.tsx';
import { LiveSupportDesk } from '../../../components/live-support-desk.tsx';
import { SupportAcknowledgeButton } from '../../../components/support-acknowledge-button.tsx';
import { SupportDocumentLink } from '../../../components/support-document-link.tsx';
import { ProblemText } from '../../../components/problem-text.tsx';
import { SupportReconcileForm } from '../../../components/support-reconcile-form.tsx';
import styles from '../../../components/support-desk.module.css';
import { labelOf, OPERATOR_NOTIFICATION_LABELS, OUTAGE_CODE_LABELS } from '../../../lib/catalogue.ts';
import { formatDateTime, formatShortDateTime } from '../../../lib/format.ts';
import { livePollMs } from '../../../server/live-status.ts';
import { requirePortalSession } from '../../../server/page-access.ts';
import { serverApi } from '../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Mesa de soporte' };

const SERVICE_LABELS: Record<string, string> = {
  recepcion: 'Recepción de e-CF',
  recepcionfc: 'Recepción de RFCE (consumo < RD$250,000)',
};

function durationOf(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

function documentHref(environment: string, documentId: string): string {
  return `/${environment}/documents/${documentId}`;
}

/** The e-NCF cell of the desk's document tables: the link (switching to its tenant first) and its environment. */
function documentCell(
  row: { environment: string; documentId: string; encf: string; tenant: { id: string } },
  activeTenantId: string | null,
) {
  return (
    <>
      <SupportDocumentLink
        href={documentHref(row.environment, row.documentId)}
        encf={row.encf}
        tenantId={row.tenant.id}
        activeTenantId={activeTenantId}
      />
      <span className={styles.environment}>{row.environment}</span>
    </>
  );
}

function evidenceHref(documentId: string): string {
  return `/api/documents/${documentId}/evidence`;
}

/**
 * `/support`: the operator's desk (support staff only, whatever tenant is chosen): every tenant's
 * documents in contingency, the outage episodes, the operator notifications of the last 72 hours
 * with acknowledge, and uncertain receiver deliveries with their reconciliation. Each tenant whose
 * data is shown gets a support view in its audit log (the procedures record them).
 */
export default async function SupportDeskPage() {
  const session = await requirePortalSession();
  if (!session.user.isSupport) forbidden();
  const activeTenantId = session.activeTenant?.id ?? null;
  const api = await serverApi();
  const [{ items }, { episodes }, { notifications }, { deliveries }] = await Promise.all([
    api.support.contingency({}),
    api.support.episodes(),
    api.support.notifications(),
    api.support.uncertainDeliveries(),
  ]);
  const openEpisodes = episodes.filter((episode) => episode.open);
  const pendingNotifications = notifications.filter((notification) => notification.acknowledgedAt === null);
  return (
    <>
      <PageHeader
        title="Mesa de soporte"
        description="Contingencia de todas las cuentas, caídas de la DGII, avisos al operador y entregas inciertas. Cada consulta queda en el registro de auditoría de la cuenta consultada."
      />
      <LiveSupportDesk pollMs={livePollMs()} />
      {openEpisodes.length > 0 ? (
        <Banner tone="warning" title="La DGII no responde">
          {openEpisodes
            .map((episode) => `${episode.environment}: ${SERVICE_LABELS[episode.service] ?? episode.service}`)
            .join('; ')}
          . Los documentos esperan en contingencia y se reintentan solos.
        </Banner>
      ) : null}
      <Panel title={`Documentos en contingencia (${items.length})`}>
        <Table
          caption="Documentos en contingencia de todas las cuentas"
          captionHidden
          rows={items}
          rowKey={(item) => item.documentId}
          empty="Ningún documento está en contingencia."
          columns={[
            {
              header: 'e-NCF',
              rowHeader: true,
              nowrap: true,
              cell: (item) => documentCell(item, activeTenantId),
            },
            { header: 'Cuenta', cell: (item) => `${item.tenant.name} (${item.tenant.rnc})` },
            {
              header: 'Desde',
              nowrap: true,
              cell: (item) => (item.since === null ? '—' : formatShortDateTime(item.since)),
            },
            { header: 'Intentos', numeric: true, cell: (item) => item.attempts },
            {
              header: 'Último error',
              cell: (item) =>
                item.lastError === null ? (
                  '—'
                ) : (
                  <ProblemText text={item.lastError} sections={[]} fallback="La DGII no respondió." />
                ),
            },
            {
              header: 'Próximo intento',
              nowrap: true,
              cell: (item) =>
                item.nextAttemptAt === null ? '—' : <NextAttemptCountdown at={item.nextAttemptAt} withTime />,
            },
            {
              header: 'Evidencia',
              nowrap: true,
              cell: (item) => (
                <a href={evidenceHref(item.documentId)} download>
                  <span className="ecf-visually-hidden">Descargar </span>ZIP
                  <span className="ecf-visually-hidden"> de evidencia de {item.encf}</span>
                </a>
              ),
            },
          ]}
        />
      </Panel>
      <Panel title="Caídas de la DGII (últimos 30 días)">
        {episodes.length === 0 ? (
          <p>No hubo caídas en los últimos 30 días.</p>
        ) : (
          <ol className={styles.timeline} aria-label="Línea de tiempo de caídas, la más reciente primero">
            {episodes.map((episode) => (
              <li key={episode.id} className={[styles.episode, episode.open ? styles.open : ''].join(' ')}>
                <p className={styles.episodeTitle}>
                  {episode.environment} · {SERVICE_LABELS[episode.service] ?? episode.service}{' '}
                  {episode.open ? (
                    <StatusBadge tone="danger">Abierta</StatusBadge>
                  ) : (
                    <StatusBadge tone="success">Restablecida</StatusBadge>
                  )}
                </p>
                <p className={styles.episodeMeta}>
                  Motivo: {labelOf(OUTAGE_CODE_LABELS, episode.code)} · desde{' '}
                  {formatDateTime(episode.degradedSince)}
                  {episode.restoredAt === null
                    ? ' · sigue abierta'
                    : ` · hasta ${formatDateTime(episode.restoredAt)}`}{' '}
                  · {durationOf(episode.durationSeconds)}
                </p>
              </li>
            ))}
          </ol>
        )}
      </Panel>
      <Panel title={`Avisos al operador, últimas 72 horas (${pendingNotifications.length} sin atender)`}>
        <Table
          caption="Avisos al operador de las últimas 72 horas"
          captionHidden
          rows={notifications}
          rowKey={(notification) => notification.id}
          empty="No hay avisos en las últimas 72 horas."
          columns={[
            {
              header: 'Aviso',
              rowHeader: true,
              cell: (notification) => labelOf(OPERATOR_NOTIFICATION_LABELS, notification.kind),
            },
            {
              header: 'Cuenta',
              cell: (notification) =>
                notification.tenant === null
                  ? 'Operador'
                  : `${notification.tenant.name} (${notification.tenant.rnc})`,
            },
            {
              header: 'Documento',
              nowrap: true,
              cell: (notification) =>
                notification.document === null ? (
                  '—'
                ) : (
                  <>
                    <SupportDocumentLink
                      href={documentHref(notification.document.environment, notification.document.id)}
                      encf={notification.document.encf}
                      tenantId={notification.tenant?.id ?? ''}
                      activeTenantId={activeTenantId}
                    />{' '}
                    ({notification.document.environment})
                  </>
                ),
            },
            {
              header: 'Fecha',
              nowrap: true,
              cell: (notification) => formatShortDateTime(notification.createdAt),
            },
            {
              header: 'Estado',
              cell: (notification) =>
                notification.acknowledgedAt === null ? (
                  <SupportAcknowledgeButton
                    notificationId={notification.id}
                    label={labelOf(OPERATOR_NOTIFICATION_LABELS, notification.kind)}
                  />
                ) : (
                  <>
                    <StatusBadge tone="success">Atendida</StatusBadge>{' '}
                    {formatDateTime(notification.acknowledgedAt)}
                    {notification.acknowledgedBy === null ? '' : ` por ${notification.acknowledgedBy.name}`}
                  </>
                ),
            },
          ]}
        />
      </Panel>
      <Panel title={`Entregas inciertas al comprador (${deliveries.length})`}>
        <Table
          caption="Entregas al receptor sin resultado conocido"
          captionHidden
          rows={deliveries}
          rowKey={(delivery) => delivery.documentId}
          empty="No hay entregas inciertas."
          columns={[
            {
              header: 'e-NCF',
              rowHeader: true,
              nowrap: true,
              cell: (delivery) => documentCell(delivery, activeTenantId),
            },
            { header: 'Cuenta', cell: (delivery) => `${delivery.tenant.name} (${delivery.tenant.rnc})` },
            { header: 'Comprador', cell: (delivery) => delivery.buyerRnc ?? '—' },
            { header: 'Intentos', numeric: true, cell: (delivery) => delivery.attempts },
            {
              header: 'Último error',
              cell: (delivery) =>
                delivery.lastError === null ? (
                  '—'
                ) : (
                  <ProblemText
                    text={delivery.lastError}
                    sections={[]}
                    fallback="Sin respuesta del comprador tras todos los reintentos."
                  />
                ),
            },
            {
              header: 'Conciliar',
              cell: (delivery) => (
                <details className={styles.details}>
                  <summary>
                    Conciliar<span className="ecf-visually-hidden"> {delivery.encf}</span>
                  </summary>
                  <SupportReconcileForm documentId={delivery.documentId} encf={delivery.encf} />
                  <p>
                    <a href={evidenceHref(delivery.documentId)} download>
                      Descargar evidencia<span className="ecf-visually-hidden"> de {delivery.encf}</span>
                    </a>
                  </p>
                </details>
              ),
            },
          ]}
        />
      </Panel>
    </>
  );
}
