import { Panel, StatusBadge, type TStatusTone } from '@ecf/ui';
import type { z } from 'zod';
import type { TFirstStep, ZGetFirstStepsOutput } from '../server/routers/overview/get-first-steps.schema.ts';
import styles from './first-steps.module.css';

type TState = TFirstStep['state'];

/** The state in words (the badge's colour is decoration only). */
export const FIRST_STEP_STATE_LABELS: Record<TState, string> = {
  done: 'Hecho',
  in_progress: 'En curso',
  pending: 'Pendiente',
};

const TONES: Record<TState, TStatusTone> = { done: 'success', in_progress: 'info', pending: 'neutral' };

const PRODUCTION_DETAILS: Record<string, string> = {
  not_requested: 'Se solicita al terminar la certificación, desde la página de certificación.',
  pending: 'Solicitada: en trámite con la DGII. Se activa cuando la DGII lista su RNC.',
  active: 'La producción está activa: puede emitir e-CF con efecto fiscal.',
  suspended: 'La producción está suspendida: comuníquese con soporte.',
};

/** What each step says and where it is done. `canTestEmission`: the role may use "Probar" (TesteCF). */
function describe(
  step: TFirstStep,
  canTestEmission: boolean,
): { label: string; href: string; detail: string } {
  switch (step.key) {
    case 'certificate':
      return {
        label: 'Instalar el certificado de firma',
        href: '/certificate',
        detail:
          step.state === 'done'
            ? 'Hay un certificado vigente: los comprobantes se firman con él.'
            : 'Sin un certificado vigente no se pueden firmar comprobantes.',
      };
    case 'apiKey':
      return {
        label: 'Crear una clave API de TesteCF',
        href: '/TesteCF/api-keys',
        detail:
          step.state === 'done'
            ? 'Hay una clave activa en TesteCF.'
            : 'Su sistema la envía en la cabecera X-API-KEY para emitir y consultar.',
      };
    case 'testDocument':
      return {
        label: 'Lograr un primer e-CF de prueba aceptado',
        href: canTestEmission ? '/TesteCF/try-it' : '/TesteCF/documents',
        detail:
          step.state === 'done'
            ? 'La DGII aceptó un e-CF de prueba en TesteCF.'
            : step.state === 'in_progress'
              ? 'Se envió un e-CF de prueba, pero la DGII aún no ha aceptado ninguno: revise sus mensajes.'
              : 'Emita uno en TesteCF desde el portal o con su clave API.',
      };
    case 'webhook':
      return {
        label: 'Recibir avisos por webhook',
        href: '/TesteCF/webhooks',
        detail:
          step.state === 'done'
            ? 'Un endpoint suyo recibió avisos con éxito.'
            : step.state === 'in_progress'
              ? 'Hay un endpoint, pero aún ninguna entrega exitosa: envíele una prueba.'
              : 'Agregue un endpoint para enterarse de cada cambio de estado de sus e-CF.',
      };
    case 'certification':
      return {
        label: `Certificarse con la DGII (paso ${step.step} de ${step.steps})`,
        href: '/CerteCF/certification',
        detail:
          step.state === 'done'
            ? 'Certificación aprobada.'
            : `Paso ${step.step} de ${step.steps}: ${step.stepTitle}. Se hace en CerteCF.`,
      };
    case 'production':
      return {
        label: 'Activar la producción (eCF)',
        href: step.state === 'done' ? '/eCF/overview' : '/CerteCF/certification',
        detail: PRODUCTION_DETAILS[step.productionState] ?? '',
      };
  }
}

/**
 * "Primeros pasos" of the overview (issue 27): each step of a new account with its state in words
 * and a link to where it is done. Once every step shown is done it collapses into one line. The
 * steps a role may not read never reach the page (the procedure leaves them out).
 */
export function FirstSteps(props: {
  firstSteps: z.infer<typeof ZGetFirstStepsOutput>;
  canTestEmission: boolean;
}) {
  const { steps, complete } = props.firstSteps;
  if (steps.length === 0) return null;
  if (complete)
    return (
      <p className={styles.completed}>
        <StatusBadge tone="success">Primeros pasos completados</StatusBadge>
      </p>
    );
  const done = steps.filter((step) => step.state === 'done').length;
  return (
    <Panel title="Primeros pasos">
      <p className={styles.intro}>
        {done} de {steps.length} hechos. Cada paso lleva a la página donde se hace.
      </p>
      <ol className={styles.steps} aria-label="Primeros pasos">
        {steps.map((step) => {
          const { label, href, detail } = describe(step, props.canTestEmission);
          return (
            <li key={step.key} className={styles.step} data-step={step.key}>
              <span>
                <StatusBadge tone={TONES[step.state]}>{FIRST_STEP_STATE_LABELS[step.state]}</StatusBadge>
              </span>
              <div>
                <a href={href} className={styles.label}>
                  {label}
                </a>
                <p className={styles.detail}>{detail}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </Panel>
  );
}
