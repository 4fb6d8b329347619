/**
 * The fifteen steps of the tax authority's certification portal, who completes each, and what a
 * person must do next (docs/certification.md, "The fifteen steps").
 */
import { CERTIFICATION_STEPS as TAXAUTH_STEPS } from '@ecf/certification-sets';
import type { CertificationCaseState, CertificationStep } from '@ecf/db';

/** The steps in the tax authority's order (the database's enum holds the same names). */
export const CERTIFICATION_STEPS = TAXAUTH_STEPS satisfies readonly CertificationStep[];

/** How a step is completed. */
export type TStepCompletedBy = 'service' | 'attestation' | 'taxauth';

type TStepInfo = {
  /** The tax authority portal's name of the step (Spanish, as the portal shows it). */
  title: string;
  completedBy: TStepCompletedBy;
  /** What a person does for this step, in the portal's language. */
  action: string;
};

/** Each step: its title at the tax authority's portal, who completes it, and what to do. */
export const CERTIFICATION_STEP_INFO: Readonly<Record<CertificationStep, TStepInfo>> = {
  registered: {
    title: 'Registrado',
    completedBy: 'attestation',
    action:
      'Complete la postulación en el portal de certificación de la DGII y descargue el set de pruebas e-CF; súbalo aquí.',
  },
  data_tests_ecf: {
    title: 'Pruebas de datos e-CF',
    completedBy: 'service',
    action:
      'Ejecute el set de pruebas (corrida de datos). Si la DGII rechaza un comprobante, descargue un set nuevo, reinicie las pruebas de datos y ejecútelo.',
  },
  data_tests_commercial_approval: {
    title: 'Pruebas de datos aprobación comercial',
    completedBy: 'service',
    action:
      'Descargue el set de aprobaciones comerciales del portal de la DGII y envíelo aquí (aprobaciones comerciales).',
  },
  simulation_ecf: {
    title: 'Simulación e-CF',
    completedBy: 'service',
    action: 'Ejecute la simulación: el set modelo de la DGII con eNCF nuevos, o sus propios comprobantes.',
  },
  simulation_printed_representation: {
    title: 'Simulación representación impresa',
    completedBy: 'attestation',
    action:
      'Descargue los PDF de la simulación (evidencia) y súbalos en el portal de la DGII; luego marque este paso.',
  },
  printed_representation_validation: {
    title: 'Validación representación impresa',
    completedBy: 'attestation',
    action: 'Cuando la DGII apruebe las representaciones impresas, marque este paso.',
  },
  test_service_urls: {
    title: 'URL servicios prueba',
    completedBy: 'attestation',
    action:
      'Registre en el portal de la DGII las URL de recepción, aprobación comercial y autenticación que se muestran aquí; luego marque este paso.',
  },
  reception_test_ecf: {
    title: 'Inicio prueba recepción e-CF',
    completedBy: 'attestation',
    action: 'Indique en el portal de la DGII que está listo para recibir e-CF; luego marque este paso.',
  },
  reception_ecf: {
    title: 'Recepción e-CF',
    completedBy: 'service',
    action: 'La DGII envía e-CF a su URL de recepción: se completa solo al recibirlos.',
  },
  reception_test_commercial_approval: {
    title: 'Inicio prueba recepción aprobación comercial',
    completedBy: 'attestation',
    action:
      'Elija "Enviar prueba de Aprobaciones Comerciales" en el portal de la DGII; luego marque este paso.',
  },
  reception_commercial_approval: {
    title: 'Recepción aprobación comercial',
    completedBy: 'service',
    action: 'La DGII envía aprobaciones comerciales a su URL: se completa solo al recibirlas.',
  },
  production_service_urls: {
    title: 'URL servicios producción',
    completedBy: 'attestation',
    action:
      'Registre en el portal de la DGII las URL de producción que se muestran aquí; luego marque este paso.',
  },
  sworn_declaration: {
    title: 'Declaración jurada',
    completedBy: 'attestation',
    action:
      'Descargue, firme y envíe la declaración jurada en el portal de la DGII; luego marque este paso. La producción queda pendiente de autorización.',
  },
  status_verification: {
    title: 'Verificación estatus',
    completedBy: 'taxauth',
    action: 'La DGII verifica el estatus del contribuyente: se completa con la autorización.',
  },
  finished: {
    title: 'Finalizado',
    completedBy: 'taxauth',
    action:
      'Se completa cuando la DGII autoriza la emisión: el directorio de producción lista su RNC y la producción se activa.',
  },
};

/** Steps a person attests (`attestations`); the others complete themselves. */
export const ATTESTABLE_STEPS: readonly CertificationStep[] = CERTIFICATION_STEPS.filter(
  (step) => CERTIFICATION_STEP_INFO[step].completedBy === 'attestation',
);

/** The position of a step (0-based). */
export function stepIndexOf(step: CertificationStep): number {
  return CERTIFICATION_STEPS.indexOf(step);
}

/** The first step not completed (`finished` once every step is). */
export function nextStepOf(completed: ReadonlySet<CertificationStep>): CertificationStep {
  return CERTIFICATION_STEPS.find((step) => !completed.has(step)) ?? 'finished';
}

/** The steps before `step` that are not completed. */
export function missingStepsBefore(
  step: CertificationStep,
  completed: ReadonlySet<CertificationStep>,
): CertificationStep[] {
  return CERTIFICATION_STEPS.slice(0, stepIndexOf(step)).filter((earlier) => !completed.has(earlier));
}

/**
 * The case's state from its completions: `approved` once `finished` is complete, else the
 * current state, except that a case `failed` stays failed until a new run starts (the caller says).
 */
export function caseDecision(input: {
  state: CertificationCaseState;
  completed: ReadonlySet<CertificationStep>;
  now: Date;
  /** A new run started or a restart happened: a failed case is in progress again. */
  resume?: boolean;
  /** A run failed. */
  fail?: boolean;
}): { step: CertificationStep; state: CertificationCaseState; approvedAt?: Date | null } {
  const step = nextStepOf(input.completed);
  if (input.state === 'closed') return { step, state: 'closed' };
  if (input.completed.has('finished')) return { step: 'finished', state: 'approved', approvedAt: input.now };
  if (input.fail) return { step, state: 'failed' };
  if (input.resume && input.state === 'failed') return { step, state: 'in_progress' };
  return { step, state: input.state === 'approved' ? 'in_progress' : input.state };
}

/** The steps a restart of a part undoes. */
export function stepsOfPart(part: 'data' | 'simulation'): CertificationStep[] {
  return part === 'data'
    ? ['data_tests_ecf', 'data_tests_commercial_approval']
    : ['simulation_ecf', 'simulation_printed_representation', 'printed_representation_validation'];
}
