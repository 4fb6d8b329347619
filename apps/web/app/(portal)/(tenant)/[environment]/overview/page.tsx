import { Banner, PageHeader, Panel, Table } from '@ecf/ui';
import { hasCapability } from '@ecf/services';
import { DOCUMENT_STATUS_LABELS } from '../../../../../components/document-labels.ts';
import { DocumentStatusBadge } from '../../../../../components/document-status-badge.tsx';
import { FirstSteps } from '../../../../../components/first-steps.tsx';
import { LiveOverview } from '../../../../../components/live-overview.tsx';
import { OverviewAcceptedChart } from '../../../../../components/overview-accepted-chart.tsx';
import styles from '../../../../../components/overview.module.css';
import { endSentence, labelOf, OUTAGE_CODE_LABELS } from '../../../../../lib/catalogue.ts';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { formatDate, formatDateTime } from '../../../../../lib/format.ts';
import { livePollMs } from '../../../../../server/live-status.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Resumen' };

const NUMBER = new Intl.NumberFormat('es-DO');

/**
 * The overview of the active tenant in one environment: documents by status today and in the last
 * 30 days, accepted per day, and banners while documents wait in contingency, the tax authority is
 * in an outage episode, or the certificate is missing, expired or about to expire. A new account
 * also sees its "Primeros pasos" (the same in every environment) until every one is done.
 */
export default async function OverviewPage(props: { params: Promise<{ environment: string }> }) {
  const { environment } = await props.params;
  const { principal } = await requirePageCapability('overview.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const api = await serverApi();
  const [overview, firstSteps] = await Promise.all([
    api.overview.get({ environment }),
    api.overview.firstSteps(),
  ]);
  const { certificate, contingency, openEpisode } = overview;
  const statuses = Object.keys(DOCUMENT_STATUS_LABELS).filter(
    (status) =>
      (overview.periodCounts.byStatus[status] ?? 0) > 0 || (overview.todayCounts.byStatus[status] ?? 0) > 0,
  );
  return (
    <>
      <PageHeader
        title="Resumen"
        description={`Documentos emitidos en ${ENVIRONMENT_LABELS[environment]}.`}
      />
      <LiveOverview environment={environment} initial={overview} pollMs={livePollMs()} />
      {contingency.count > 0 ? (
        <Banner tone="warning" title="Documentos en contingencia">
          {contingency.count === 1 ? 'Hay 1 documento' : `Hay ${NUMBER.format(contingency.count)} documentos`}{' '}
          {/* One period even after "a. m." (endSentence). */}
          {endSentence(
            `en contingencia${contingency.since ? ` desde ${formatDateTime(contingency.since)}` : ''}`,
          )}{' '}
          Se reintentan solos; no los vuelva a emitir.
        </Banner>
      ) : null}
      {openEpisode ? (
        <Banner tone="warning" title="La DGII no está recibiendo documentos">
          Desde {formatDateTime(openEpisode.since)} los envíos de {environment} no llegan a la DGII (
          {labelOf(OUTAGE_CODE_LABELS, openEpisode.code)}). Los documentos quedan en contingencia y se envían
          cuando el servicio se restablezca.
        </Banner>
      ) : null}
      {certificate.state === 'missing' ? (
        <Banner tone="danger" title="No hay certificado activo">
          Sin certificado no se pueden firmar documentos. <a href="/certificate">Instale un certificado</a>.
        </Banner>
      ) : certificate.state === 'expired' && certificate.validTo ? (
        <Banner tone="danger" title="El certificado venció">
          Venció el {formatDate(certificate.validTo)}: los documentos no se pueden firmar.{' '}
          <a href="/certificate">Instale uno nuevo</a>.
        </Banner>
      ) : certificate.state === 'expiring' && certificate.validTo ? (
        <Banner tone="warning" title="El certificado vence pronto">
          Vence el {formatDate(certificate.validTo)} (
          {certificate.daysLeft === 0 ? 'hoy' : `en ${certificate.daysLeft ?? 0} días`}).{' '}
          <a href="/certificate">Instale el nuevo</a> antes de esa fecha.
        </Banner>
      ) : null}
      <FirstSteps firstSteps={firstSteps} canTestEmission={hasCapability(principal, 'emission.test')} />
      <ul className={styles.cards} aria-label="Totales">
        <li className={styles.card}>
          <p className={styles.cardLabel}>Hoy</p>
          <p className={styles.cardValue}>{NUMBER.format(overview.todayCounts.total)}</p>
        </li>
        <li className={styles.card}>
          <p className={styles.cardLabel}>Últimos {overview.periodDays} días</p>
          <p className={styles.cardValue}>{NUMBER.format(overview.periodCounts.total)}</p>
        </li>
        <li className={styles.card}>
          <p className={styles.cardLabel}>En contingencia</p>
          <p className={styles.cardValue}>{NUMBER.format(contingency.count)}</p>
        </li>
      </ul>
      <Panel title="Documentos por estado">
        <Table
          caption={`Documentos por estado, hoy y en los últimos ${overview.periodDays} días`}
          captionHidden
          rows={statuses}
          rowKey={(status) => status}
          empty={`No hay documentos en los últimos ${overview.periodDays} días.`}
          columns={[
            { header: 'Estado', rowHeader: true, cell: (status) => <DocumentStatusBadge status={status} /> },
            { header: 'Hoy', cell: (status) => NUMBER.format(overview.todayCounts.byStatus[status] ?? 0) },
            {
              header: `Últimos ${overview.periodDays} días`,
              cell: (status) => NUMBER.format(overview.periodCounts.byStatus[status] ?? 0),
            },
          ]}
        />
      </Panel>
      <Panel title="Aceptados por día">
        <OverviewAcceptedChart days={overview.acceptedPerDay} periodDays={overview.periodDays} />
      </Panel>
    </>
  );
}
