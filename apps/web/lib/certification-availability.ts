/**
 * Whether the certification page's weighty actions can apply now, and if not, why (shown next to
 * the disabled button): asking for production before the sworn declaration, or restarting a part
 * that has nothing to restart, would only answer with a refusal or do nothing. Client-safe: reads
 * the case view the page already has.
 */
import type { z } from 'zod';
import type { ZCaseView } from '../server/routers/certification/certification.schema.ts';
import type { TCertificationPart } from './certification-schemas.ts';

type TCase = z.infer<typeof ZCaseView>;

/** The step production waits for: every step before it (1 to 13, up to the sworn declaration) done. */
const ACTIVATION_STEP = 'status_verification';

/**
 * The steps a restart of each part undoes (services' `stepsOfPart`, kept equal by
 * certification-availability.test.ts).
 */
export const PART_STEPS: Readonly<Record<TCertificationPart, readonly string[]>> = {
  data: ['data_tests_ecf', 'data_tests_commercial_approval'],
  simulation: ['simulation_ecf', 'simulation_printed_representation', 'printed_representation_validation'],
};

/** Why "Solicitar activación de producción" cannot apply now, or null when it can. */
export function activationUnavailableReason(view: TCase): string | null {
  if (view.production.state === 'suspended')
    return 'La producción está suspendida por el operador del servicio: no se puede solicitar hasta que la reactive.';
  const position = view.steps.findIndex((step) => step.step === ACTIVATION_STEP);
  const missing = view.steps
    .slice(0, position < 0 ? view.steps.length : position)
    .filter((step) => step.state !== 'done');
  if (view.caseId === null || missing.length > 0) {
    const first = missing[0];
    const pending =
      first === undefined
        ? ''
        : ` Pendiente: «${first.number}. ${first.title}»${missing.length > 1 ? ` y ${missing.length - 1} paso(s) más` : ''}.`;
    return `Se habilita después de la declaración jurada (paso 13), con los pasos 1 a 13 hechos.${pending}`;
  }
  return null;
}

/** Why restarting `part` cannot apply now (nothing of it to restart), or null when it can. */
export function restartUnavailableReason(view: TCase, part: TCertificationPart): string | null {
  if (view.caseId === null)
    return 'Todavía no hay nada que reiniciar: la certificación empieza al subir el set de pruebas.';
  if (view.state === 'approved' || view.state === 'closed')
    return 'La certificación ya terminó: no hay nada que reiniciar.';
  const liveRun = view.runs.some((run) => run.part === part && run.replacedAt === null);
  const doneStep = view.steps.some((step) => PART_STEPS[part].includes(step.step) && step.state === 'done');
  const approvals = part === 'data' && view.commercialApprovals !== null;
  if (liveRun || doneStep || approvals) return null;
  return part === 'data'
    ? 'No hay pruebas de datos que reiniciar: ninguna corrida ni aprobación comercial vigente.'
    : 'No hay simulación que reiniciar: ninguna corrida de simulación vigente.';
}
