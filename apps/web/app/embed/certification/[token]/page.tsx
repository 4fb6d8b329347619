import { notFound } from 'next/navigation';
import { Banner, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { AppError, checkCertificationEmbedToken, getCertificationCase, getTenant } from '@ecf/services';
import {
  CASE_STATE_LABELS,
  CASE_STATE_TONES,
  COMPLETED_BY_LABELS,
  PART_LABELS,
  PRODUCTION_STATE_LABELS,
  RUN_STATE_LABELS,
  RUN_STATE_TONES,
  STEP_STATE_LABELS,
  STEP_STATE_TONES,
} from '../../../../lib/certification-schemas.ts';
import { formatShortDateTime } from '../../../../lib/format.ts';
import { portalRuntime } from '../../../../server/runtime.ts';

export const metadata = { title: 'Certificación' };

/**
 * The certification steps of one account as a Partner embeds them in its own web application
 * (Partner `certification-sessions`): the link's signed token is the credential and names the
 * account and the one origin allowed to frame the page (proxy.ts answers `frame-ancestors` with it,
 * and 410 once the link expired). Read-only: the Partner acts through the Partner API.
 */
export default async function EmbeddedCertificationPage(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const runtime = portalRuntime();
  let tenantId: string;
  try {
    tenantId = checkCertificationEmbedToken({ token, now: new Date(), secret: runtime.embedSecret }).tenantId;
  } catch (error) {
    if (error instanceof AppError && error.code === 'CERTIFICATION_EMBED_EXPIRED')
      return (
        <Banner tone="warning" title="El enlace venció">
          <p>Pida a su proveedor de software que abra la certificación de nuevo.</p>
        </Banner>
      );
    notFound();
  }
  const tenant = await getTenant({ database: runtime.database, reference: tenantId }).catch(() => notFound());
  const view = await getCertificationCase({
    database: runtime.database,
    tenant,
    environment: 'CerteCF',
    publicBaseUrl: runtime.publicBaseUrl,
  });
  return (
    <main>
      <PageHeader
        title="Certificación con la DGII"
        description={`${tenant.tradeName ?? tenant.legalName} (RNC ${tenant.rnc}): los 15 pasos del portal de certificación de la DGII.`}
      />
      <p>
        Estado:{' '}
        <StatusBadge tone={CASE_STATE_TONES[view.state] ?? 'neutral'}>
          {CASE_STATE_LABELS[view.state] ?? view.state}
        </StatusBadge>{' '}
        · Producción: {PRODUCTION_STATE_LABELS[view.production.state] ?? view.production.state}
      </p>
      {view.nextAction === null ? null : (
        <Banner
          tone="info"
          title={`Siguiente paso: ${view.steps.find((step) => step.step === view.nextAction?.step)?.title ?? ''}`}
        >
          <p>{view.nextAction.action}</p>
        </Banner>
      )}
      <Panel title="Pasos">
        <Table
          caption="Los 15 pasos de la certificación"
          captionHidden
          rowKey={(step) => step.step}
          rows={view.steps}
          columns={[
            { header: '#', cell: (step) => step.number },
            { header: 'Paso', cell: (step) => step.title },
            {
              header: 'Estado',
              cell: (step) => (
                <StatusBadge tone={STEP_STATE_TONES[step.state] ?? 'neutral'}>
                  {STEP_STATE_LABELS[step.state] ?? step.state}
                </StatusBadge>
              ),
            },
            {
              header: 'Lo completa',
              cell: (step) => COMPLETED_BY_LABELS[step.completedBy] ?? step.completedBy,
            },
            {
              header: 'Completado',
              nowrap: true,
              cell: (step) => (step.completedAt === null ? '—' : formatShortDateTime(step.completedAt)),
            },
          ]}
        />
      </Panel>
      <Panel title="Corridas">
        <Table
          caption="Corridas de la certificación"
          captionHidden
          rowKey={(run) => run.runId}
          rows={view.runs}
          empty="Aún no hay corridas."
          columns={[
            { header: 'Parte', cell: (run) => PART_LABELS[run.part] ?? run.part },
            {
              header: 'Estado',
              cell: (run) => (
                <StatusBadge tone={RUN_STATE_TONES[run.state] ?? 'neutral'}>
                  {RUN_STATE_LABELS[run.state] ?? run.state}
                </StatusBadge>
              ),
            },
            { header: 'Aceptados', cell: (run) => `${run.totals.accepted} de ${run.totals.documents}` },
            { header: 'Creada', nowrap: true, cell: (run) => formatShortDateTime(run.createdAt) },
          ]}
        />
      </Panel>
    </main>
  );
}
