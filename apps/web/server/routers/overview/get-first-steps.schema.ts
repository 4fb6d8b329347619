import { z } from 'zod';

export const FIRST_STEP_STATES = ['done', 'in_progress', 'pending'] as const;
const PRODUCTION_STATES = ['not_requested', 'pending', 'active', 'suspended'] as const;

const state = z.enum(FIRST_STEP_STATES);

export const ZGetFirstStepsInput = z.void();

/** One step of the checklist; the steps a role may not read are left out (see get-first-steps.ts). */
export const ZFirstStep = z.discriminatedUnion('key', [
  z.object({ key: z.literal('certificate'), state }),
  z.object({ key: z.literal('apiKey'), state }),
  z.object({ key: z.literal('testDocument'), state }),
  z.object({ key: z.literal('webhook'), state }),
  z.object({
    key: z.literal('certification'),
    state,
    step: z.number().int().min(1),
    stepTitle: z.string(),
    steps: z.number().int().min(1),
  }),
  z.object({ key: z.literal('production'), state, productionState: z.enum(PRODUCTION_STATES) }),
]);
export type TFirstStep = z.infer<typeof ZFirstStep>;

/** The active tenant's first steps (getFirstSteps of @ecf/services), in order; `complete` when every one shown is done. */
export const ZGetFirstStepsOutput = z.object({
  steps: z.array(ZFirstStep),
  complete: z.boolean(),
});
