import { notFound } from 'next/navigation';
import { Banner, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { AppError, checkCertificationEmbedToken, getCertificationCase, getTenant } from '@ecf/services';
import { CertificationFacts, howCompleted } from '../../../../components/certification-overview.tsx';
import styles from '../../../../components/certification.module.css';
import { EmbedFrame } from '../../../../components/embed-frame.tsx';
import { readOnlyStepAction } from '../../../../lib/certification-read-only.ts';
import {
  PART_LABELS,
  PRODUCTION_STATE_LABELS,
  RUN_STATE_LABELS,
  RUN_STATE_TONES,
  STEP_STATE_LABELS,
  STEP_STATE_TONES,
} from '../../../../lib/certification-schemas.ts';
import { formatDateTime, formatShortDateTime } from '../../../../lib/format.ts';
import { portalRuntime } from '../../../../server/runtime.ts';

export const metadata = { title: 'Certificación' };

/**
 * The certification steps of one account as a Partner embeds them in its own web application
 * (Partner `certification-sessions`): the link's signed token is the credential and names the
 * account and the one origin allowed to frame the page (proxy.ts answers `frame-ancestors` with it,
 * and 410 once the link expired). Read-only, in the tenant page's words (`CertificationOverview`:
 * "Próximo paso: N. …", "N de 15", how each step is completed) but with what to do said for a page
 * where nothing is done (`readOnlyStepAction`). `EmbedFrame` pads it, posts its height to the
 * token's origin and says when the link expires.
 */
export default async function EmbeddedCertificationPage(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const runtime = portalRuntime();
  let claims: { tenantId: string; origin: string; expiresAt: number };
  try {
    claims = checkCertificationEmbedToken({ token, now: new Date(), secret: runtime.embedSecret });
  } catch (error) {
    // proxy.ts answers an expired link first; this covers the instant between the two checks.
    if (error instanceof AppError && error.code === 'CERTIFICATION_EMBED_EXPIRED')
      return (
        <main>
          <Banner tone="warning" title="El enlace venció">
            <p>Vuelva a abrir la certificación desde la aplicación de su proveedor de software.</p>
          </Banner>
        </main>
      );
    notFound();
  }
  const tenant = await getTenant({ database: runtime.database, reference: claims.tenantId }).catch(() =>
    notFound(),
  );
  const view = await getCertificationCase({
    database: runtime.database,
    tenant,
    environment: 'CerteCF',
    publicBaseUrl: runtime.publicBaseUrl,
  });
  const current = view.steps.find((step) => step.step === view.step);
  return (
    <main>
      <EmbedFrame origin={claims.origin} expiresAt={new Date(claims.expiresAt * 1000).toISOString()}>
        <PageHeader
          title="Certificación con la DGII"
          description={`${tenant.tradeName ?? tenant.legalName} (RNC ${tenant.rnc}): los 15 pasos del portal de certificación de la DGII.`}
        />
        <section className={styles.next} aria-labelledby="certification-next">
          <h2 id="certification-next" className={styles.nextTitle}>
            {view.nextAction === null
              ? 'Certificación aprobada'
              : `Próximo paso: ${current?.number ?? ''}. ${current?.title ?? view.nextAction.step}`}
          </h2>
          {view.nextAction === null ? (
            <p className={styles.nextAction}>
              La DGII autorizó la emisión{view.approvedAt ? ` el ${formatDateTime(view.approvedAt)}` : ''};
              producción: {PRODUCTION_STATE_LABELS[view.production.state] ?? view.production.state}.
            </p>
          ) : (
            <>
              <p className={styles.nextAction} data-testid="next-action">
                {readOnlyStepAction(view.nextAction.step, view.nextAction.action)}
              </p>
              <p className={styles.muted}>{current ? howCompleted(current) : null}</p>
            </>
          )}
        </section>
        <CertificationFacts view={view} />
        <Panel title="Los 15 pasos de la DGII">
          <Table
            caption="Los 15 pasos de la certificación"
            captionHidden
            rowKey={(step) => step.step}
            rows={view.steps}
            columns={[
              { header: 'Paso', numeric: true, cell: (step) => step.number },
              { header: 'Nombre en la DGII', rowHeader: true, cell: (step) => step.title },
              {
                header: 'Estado',
                nowrap: true,
                cell: (step) => (
                  <StatusBadge tone={STEP_STATE_TONES[step.state] ?? 'neutral'}>
                    {STEP_STATE_LABELS[step.state] ?? step.state}
                  </StatusBadge>
                ),
              },
              { header: 'Cómo se completa', cell: (step) => howCompleted(step) },
            ]}
          />
        </Panel>
        <Panel title="Corridas">
          <Table
            caption="Corridas de la certificación"
            captionHidden
            rowKey={(run) => run.runId}
            rows={view.runs}
            empty="Aún no hay corridas: su proveedor de software las inicia."
            columns={[
              { header: 'Parte', rowHeader: true, cell: (run) => PART_LABELS[run.part] ?? run.part },
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
      </EmbedFrame>
    </main>
  );
}
