/**
 * The certification page's body, self-contained (it reads nothing but its props, links only to the
 * paths it is given), so that the portal's page and a later embedded route render the same thing:
 * the next human action first, the fifteen steps, the URLs to register, the sets to run, the
 * commercial approvals, the runs, restarts and production.
 */
import type { z } from 'zod';
import { Banner, CopyButton, Panel, StatusBadge, Table } from '@ecf/ui';
import {
  ACTIVE_RUN_STATES,
  ATTESTABLE_STEPS,
  CASE_STATE_LABELS,
  CASE_STATE_TONES,
  COMPLETED_BY_LABELS,
  COMPLETION_SOURCE_LABELS,
  PART_LABELS,
  PRODUCTION_STATE_LABELS,
  RUN_STATE_LABELS,
  RUN_STATE_TONES,
  runFailureText,
  SOURCE_LABELS,
  STEP_STATE_LABELS,
  STEP_STATE_TONES,
  type TAttestableStep,
} from '../lib/certification-schemas.ts';
import { activationUnavailableReason, restartUnavailableReason } from '../lib/certification-availability.ts';
import { formatDateTime, formatShortDateTime } from '../lib/format.ts';
import type { ZCaseView } from '../server/routers/certification/certification.schema.ts';
import { CertificationActivationButton } from './certification-activation-button.tsx';
import { CertificationApprovals } from './certification-approvals.tsx';
import { CertificationAttestButton } from './certification-attest-button.tsx';
import { CertificationRestart } from './certification-restart.tsx';
import { CertificationSetForm } from './certification-set-form.tsx';
import styles from './certification.module.css';

type TCase = z.infer<typeof ZCaseView>;
type TStep = TCase['steps'][number];

/** What a case's "Estado" panel needs: the tenant page and the Partner's embed show the same facts. */
type TFactsView = {
  state: string;
  step: string;
  steps: ReadonlyArray<{ step: string; number: number; title: string }>;
  production: { state: string };
};

/** The "Estado" panel: the case's state, its current step as "N de 15: …", the production state. */
export function CertificationFacts({ view }: { view: TFactsView }) {
  const current = view.steps.find((step) => step.step === view.step);
  return (
    <Panel title="Estado">
      <dl className={styles.facts}>
        <dt>Certificación</dt>
        <dd>
          <StatusBadge tone={CASE_STATE_TONES[view.state] ?? 'neutral'}>
            {CASE_STATE_LABELS[view.state] ?? view.state}
          </StatusBadge>
        </dd>
        <dt>Paso actual</dt>
        <dd data-testid="current-step">
          {current ? `${current.number} de 15: ${current.title}` : view.step}
        </dd>
        <dt>Producción</dt>
        <dd data-testid="production-state">
          {PRODUCTION_STATE_LABELS[view.production.state] ?? view.production.state}
        </dd>
      </dl>
    </Panel>
  );
}

const isAttestable = (step: string): step is TAttestableStep =>
  (ATTESTABLE_STEPS as readonly string[]).includes(step);

/** Where on this page a service step's work is done. */
const SECTION_OF_STEP: Record<string, { id: string; label: string }> = {
  registered: { id: 'pruebas-datos', label: 'Subir el set de pruebas' },
  data_tests_ecf: { id: 'pruebas-datos', label: 'Ir a las pruebas de datos' },
  data_tests_commercial_approval: { id: 'aprobaciones', label: 'Ir a las aprobaciones comerciales' },
  simulation_ecf: { id: 'simulacion', label: 'Ir a la simulación' },
  simulation_printed_representation: { id: 'corridas', label: 'Descargar la evidencia de la simulación' },
  test_service_urls: { id: 'urls', label: 'Ver las URL' },
  production_service_urls: { id: 'urls', label: 'Ver las URL' },
};

/** Sections rendered only for `certification.manage` (the set forms). */
const MANAGE_SECTIONS: ReadonlySet<string> = new Set(['pruebas-datos', 'simulacion']);

export function howCompleted(step: TStep): string {
  if (step.state === 'done') {
    const how = step.source === null ? '' : ` ${COMPLETION_SOURCE_LABELS[step.source] ?? step.source}`;
    return `Completado${step.completedAt ? ` el ${formatDateTime(step.completedAt)}` : ''}${how}.`;
  }
  // A set exists only once the tax authority registered the application: uploading one completes it.
  if (step.step === 'registered') return 'Se completa al subir el set de pruebas de la DGII.';
  return `${COMPLETED_BY_LABELS[step.completedBy] ?? step.completedBy}.`;
}

function UrlList(props: { urls: NonNullable<TCase['serviceUrls']>['test']; caption: string }) {
  const rows = [
    ['Recepción', props.urls.reception],
    ['Aprobación comercial', props.urls.commercialApproval],
    ['Autenticación', props.urls.authentication],
  ] as const;
  return (
    <dl className={styles.urls}>
      {rows.map(([label, url]) => (
        <div key={label} className={styles.urlRow}>
          <dt>{label}</dt>
          <dd className={styles.code}>{url}</dd>
          <dd>
            <CopyButton value={url} label={`Copiar URL de ${label.toLowerCase()} (${props.caption})`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function CertificationOverview(props: {
  view: TCase;
  canManage: boolean;
  /** The run page of a run: `${runPath}/${runId}`. */
  runPath: string;
}) {
  const { view, canManage } = props;
  const stepTitles = Object.fromEntries(
    view.steps.map((step) => [step.step, `${step.number}. ${step.title}`]),
  );
  const current = view.steps.find((step) => step.step === view.step);
  const done = (step: string) => view.steps.find((candidate) => candidate.step === step)?.state === 'done';
  const activeRun = view.runs.find((run) => ACTIVE_RUN_STATES.includes(run.state));
  const lastFailed = view.state === 'failed' ? view.runs.find((run) => run.state === 'failed') : undefined;
  const target = view.nextAction === null ? undefined : SECTION_OF_STEP[view.nextAction.step];
  // The forms' sections are shown to those who may use them only.
  const section = target !== undefined && (canManage || !MANAGE_SECTIONS.has(target.id)) ? target : undefined;
  // Attestations belong to a case: before the first set opens one, step 1 is the upload.
  const canAttest = canManage && view.caseId !== null;

  return (
    <>
      <section className={styles.next} aria-labelledby="certification-next">
        <h2 id="certification-next" className={styles.nextTitle}>
          {view.nextAction === null
            ? 'Certificación aprobada'
            : `Próximo paso: ${current?.number ?? ''}. ${current?.title ?? view.nextAction.step}`}
        </h2>
        {view.nextAction === null ? (
          <p className={styles.nextAction}>
            La DGII autorizó la emisión{view.approvedAt ? ` el ${formatDateTime(view.approvedAt)}` : ''}.
            Producción: {PRODUCTION_STATE_LABELS[view.production.state] ?? view.production.state}.
          </p>
        ) : (
          <>
            <p className={styles.nextAction} data-testid="next-action">
              {view.nextAction.action}
            </p>
            <p className={styles.muted}>{current ? howCompleted(current) : null}</p>
            {canAttest && isAttestable(view.nextAction.step) && current ? (
              <CertificationAttestButton
                step={view.nextAction.step}
                number={current.number}
                title={current.title}
                stepTitles={stepTitles}
                prominent
              />
            ) : null}
            {section ? (
              <p>
                <a href={`#${section.id}`}>{section.label}</a>
              </p>
            ) : null}
          </>
        )}
      </section>
      {activeRun ? (
        <Banner tone="info" title="Corrida en curso">
          {PART_LABELS[activeRun.part]}: {activeRun.totals.accepted} de {activeRun.totals.documents}{' '}
          documentos aceptados. <a href={`${props.runPath}/${activeRun.runId}`}>Seguir la corrida</a>
        </Banner>
      ) : null}
      {lastFailed?.failure ? (
        <Banner tone="danger" title="La última corrida falló">
          {runFailureText(lastFailed.failure, lastFailed.part)}{' '}
          <a href={`${props.runPath}/${lastFailed.runId}`}>Ver la corrida</a>
        </Banner>
      ) : null}
      <CertificationFacts view={view} />
      <Panel title="Los 15 pasos de la DGII">
        <ol className={styles.stepper} aria-label="Pasos de la certificación">
          {view.steps.map((step) => (
            <li
              key={step.step}
              id={`paso-${step.number}`}
              className={[styles.step, styles[step.state]].filter(Boolean).join(' ')}
              aria-current={step.state === 'current' ? 'step' : undefined}
              data-step={step.step}
              data-state={step.state}
            >
              <span className={styles.marker} aria-hidden="true">
                {step.number}
              </span>
              <div>
                <div className={styles.stepHeader}>
                  <h3 className={styles.stepTitle}>
                    <span className="ecf-visually-hidden">Paso {step.number}: </span>
                    {step.title}
                  </h3>
                  <StatusBadge tone={STEP_STATE_TONES[step.state] ?? 'neutral'}>
                    {STEP_STATE_LABELS[step.state] ?? step.state}
                  </StatusBadge>
                </div>
                <p className={styles.meta}>{howCompleted(step)}</p>
                {step.state === 'done' ? null : <p className={styles.action}>{step.action}</p>}
                {canAttest && step.state !== 'done' && step.step !== view.step && isAttestable(step.step) ? (
                  <CertificationAttestButton
                    step={step.step}
                    number={step.number}
                    title={step.title}
                    stepTitles={stepTitles}
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      </Panel>
      <div id="urls">
        <Panel title="URL para registrar en la DGII">
          {view.serviceUrls === null ? (
            <p className={styles.muted}>El servicio no tiene configurada su dirección pública.</p>
          ) : (
            <>
              <p>
                Paso 7: registre las URL de prueba (CerteCF). Paso 12: registre las de producción (eCF). La
                DGII llama a estas direcciones para enviarle e-CF y aprobaciones comerciales.
              </p>
              <h3>Prueba (CerteCF)</h3>
              <UrlList urls={view.serviceUrls.test} caption="prueba" />
              <h3>Producción (eCF)</h3>
              <UrlList urls={view.serviceUrls.production} caption="producción" />
            </>
          )}
        </Panel>
      </div>
      {canManage ? (
        <div id="pruebas-datos">
          <Panel title="Pruebas de datos (pasos 1 y 2)">
            <p>
              Suba el set de pruebas e-CF que descargó del portal de la DGII: se prevalida cada fila y, al
              iniciar la corrida, cada documento se firma y se envía a CerteCF en orden (las notas después de
              su original). Un e-NCF enviado queda usado: si la DGII rechaza uno, reinicie las pruebas de
              datos con un set nuevo.
            </p>
            {done('data_tests_ecf') ? (
              <Banner tone="success">La DGII ya aceptó las pruebas de datos.</Banner>
            ) : (
              <CertificationSetForm part="data" allowModel={false} runPath={props.runPath} />
            )}
          </Panel>
        </div>
      ) : null}
      <div id="aprobaciones">
        <Panel title="Aprobaciones comerciales (paso 3)">
          <CertificationApprovals
            initial={view.commercialApprovals}
            canManage={canManage}
            ready={done('data_tests_ecf')}
            accepted={done('data_tests_commercial_approval')}
          />
        </Panel>
      </div>
      {canManage ? (
        <div id="simulacion">
          <Panel title="Simulación (paso 4)">
            {done('simulation_ecf') ? (
              <Banner tone="success">La DGII ya aceptó la simulación.</Banner>
            ) : done('data_tests_commercial_approval') ? (
              <CertificationSetForm part="simulation" allowModel runPath={props.runPath} />
            ) : (
              <p className={styles.muted}>
                La simulación viene después de que la DGII acepte las pruebas de datos y las aprobaciones
                comerciales.
              </p>
            )}
          </Panel>
        </div>
      ) : null}
      <div id="corridas">
        <Panel title="Corridas">
          <Table
            caption="Corridas de la certificación"
            captionHidden
            rows={view.runs}
            rowKey={(run) => run.runId}
            empty="Todavía no hay corridas."
            columns={[
              {
                header: 'Creada',
                nowrap: true,
                rowHeader: true,
                cell: (run) => (
                  <a href={`${props.runPath}/${run.runId}`}>{formatShortDateTime(run.createdAt)}</a>
                ),
              },
              { header: 'Parte', cell: (run) => PART_LABELS[run.part] ?? run.part },
              { header: 'Set', cell: (run) => SOURCE_LABELS[run.source] ?? run.source },
              {
                header: 'Estado',
                cell: (run) => (
                  <StatusBadge tone={RUN_STATE_TONES[run.state] ?? 'neutral'}>
                    {RUN_STATE_LABELS[run.state] ?? run.state}
                  </StatusBadge>
                ),
              },
              {
                header: 'Aceptados',
                numeric: true,
                cell: (run) => `${run.totals.accepted} de ${run.totals.documents}`,
              },
              {
                header: 'Reemplazada',
                nowrap: true,
                cell: (run) => (run.replacedAt ? formatShortDateTime(run.replacedAt) : '—'),
              },
            ]}
          />
        </Panel>
      </div>
      {canManage ? (
        <Panel title="Reiniciar una parte">
          <p>
            Si la DGII rechazó un comprobante o reinició la parte en su portal, reiníciela aquí también: la
            corrida en curso se detiene y sus comprobantes quedan reemplazados (se conservan).
          </p>
          <CertificationRestart
            unavailable={{
              data: restartUnavailableReason(view, 'data'),
              simulation: restartUnavailableReason(view, 'simulation'),
            }}
          />
        </Panel>
      ) : null}
      <Panel title="Producción">
        <p>
          Autorización de producción:{' '}
          <strong>{PRODUCTION_STATE_LABELS[view.production.state] ?? view.production.state}</strong>. Se
          activa sola cuando la DGII lista su RNC en su directorio de producción, después de la declaración
          jurada (paso 13).
        </p>
        {canManage && view.production.state !== 'active' ? (
          <CertificationActivationButton
            stepTitles={stepTitles}
            unavailableReason={activationUnavailableReason(view)}
          />
        ) : null}
      </Panel>
    </>
  );
}
