/**
 * The fifteen steps of the tax authority's certification portal, in order, and what a taxpayer's
 * progress through them looks like. A step is done once; the current step is the first that is not.
 */
import { CERTIFICATION_STEPS, type TCertificationStep } from '@ecf/certification-sets';

export { CERTIFICATION_STEPS, type TCertificationStep };

/** When each completed step was completed (ISO text). */
export type TCompletedSteps = Readonly<Partial<Record<TCertificationStep, string>>>;

/** The steps a person at the tax authority judges and records (`POST …/attestations`). */
export const ATTESTED_STEPS = [
  'simulation_printed_representation',
  'printed_representation_validation',
  'sworn_declaration',
] as const;

/** The position of a step (0 for `registered`). */
export function stepIndex(step: TCertificationStep): number {
  return CERTIFICATION_STEPS.indexOf(step);
}

/** The first step not completed; `finished` once every step is. */
export function currentStepOf(completed: TCompletedSteps): TCertificationStep {
  return CERTIFICATION_STEPS.find((step) => completed[step] === undefined) ?? 'finished';
}

/** The steps before `step` that are not completed (empty: `step` may be taken). */
export function missingBefore(step: TCertificationStep, completed: TCompletedSteps): TCertificationStep[] {
  return CERTIFICATION_STEPS.slice(0, stepIndex(step)).filter((before) => completed[before] === undefined);
}

/** `completed` with `steps` completed at `at` (a step already completed keeps its time). */
export function withCompleted(
  completed: TCompletedSteps,
  steps: readonly TCertificationStep[],
  at: Date,
): TCompletedSteps {
  const next: Partial<Record<TCertificationStep, string>> = { ...completed };
  for (const step of steps) next[step] ??= at.toISOString();
  return next;
}

/** `completed` without `from` and every step after it: the certification goes back to `from`. */
export function restartedFrom(completed: TCompletedSteps, from: TCertificationStep): TCompletedSteps {
  const next: Partial<Record<TCertificationStep, string>> = {};
  for (const step of CERTIFICATION_STEPS.slice(0, stepIndex(from))) {
    const at = completed[step];
    if (at !== undefined) next[step] = at;
  }
  return next;
}

/** Each step with its state, as the status shows them. */
export function stepStates(
  completed: TCompletedSteps,
): Array<{ step: TCertificationStep; state: 'pending' | 'current' | 'done'; completedAt: string | null }> {
  const current = currentStepOf(completed);
  return CERTIFICATION_STEPS.map((step) => {
    const completedAt = completed[step] ?? null;
    return {
      step,
      state: completedAt !== null ? 'done' : step === current ? 'current' : 'pending',
      completedAt,
    };
  });
}
