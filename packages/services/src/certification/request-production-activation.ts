import type { ProductionState, TDatabase, TEnqueue } from '@ecf/db';
import {
  changeProductionState,
  findOpenCertificationCase,
  findStepCompletions,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { missingStepsBefore } from './certification-steps.ts';

/**
 * Asks for the production authorization now (normally automatic): once the sworn declaration is
 * done, production is `pending` and the sync job looks for the account in the tax authority's eCF
 * directory at once (an approved case is activated on the spot). 409
 * `CERTIFICATION_NOT_APPROVED` before the sworn declaration (with `details.missingSteps`).
 * An active production answers as it is (nothing to do). A `suspended` production is 409
 * `PRODUCTION_STATE_CONFLICT` (`details.productionState`): the suspension is the operator's
 * decision, and asking again must neither lift it nor queue a look-up that would (the sync only
 * moves `not_requested` and `pending`); nothing changes and nothing is queued.
 */
export async function requestProductionActivation(options: {
  database: TDatabase;
  tenant: { id: string; productionState: ProductionState };
  enqueue: TEnqueue;
}): Promise<{ productionState: ProductionState; checking: boolean }> {
  const { database, tenant } = options;
  if (tenant.productionState === 'active') return { productionState: 'active', checking: false };
  if (tenant.productionState === 'suspended')
    throw new AppError(
      'PRODUCTION_STATE_CONFLICT',
      'Production is suspended for this account: activation cannot be requested until the operator lifts the suspension.',
      { details: { productionState: tenant.productionState } },
    );
  const open = await findOpenCertificationCase(database, tenant.id);
  const completed = new Set(
    open === null ? [] : (await findStepCompletions(database, open.id)).map((row) => row.step),
  );
  const missing = missingStepsBefore('status_verification', completed);
  if (open === null || missing.length > 0) {
    throw new AppError(
      'CERTIFICATION_NOT_APPROVED',
      'Production is authorized after the certification: the steps up to the sworn declaration must be done.',
      {
        details: { step: open?.step ?? 'registered', missingSteps: open === null ? ['registered'] : missing },
      },
    );
  }
  const moved = await changeProductionState(database, {
    tenantId: tenant.id,
    from: ['not_requested'],
    to: 'pending',
  });
  await options.enqueue([{ name: 'certification.sync', payload: { tenantId: tenant.id } }]);
  return { productionState: moved ? 'pending' : tenant.productionState, checking: true };
}
