import { assertDirectCertification, AppError, getTenant, requestProductionActivation } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRequestActivationInput, ZRequestActivationOutput } from './certification.schema.ts';

/**
 * Asks for production now (it is normally automatic once the tax authority lists the account in its
 * directory): production becomes pending and the sync looks at once. CONFLICT
 * CERTIFICATION_NOT_APPROVED (with `details.missingSteps`) before the sworn declaration; CONFLICT
 * PRODUCTION_STATE_CONFLICT while the operator keeps production suspended.
 */
export const requestActivation = tenantProcedure('certification.manage')
  .input(ZRequestActivationInput)
  .output(ZRequestActivationOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    if (input.environment !== 'CerteCF') {
      throw new AppError('CERTIFICATION_ENVIRONMENT_REQUIRED', 'Certification runs in CerteCF.', {
        details: { environment: input.environment, required: 'CerteCF' },
      });
    }
    const tenant = await getTenant({ database: ctx.database, reference: ctx.tenant.id });
    return requestProductionActivation({
      database: ctx.database,
      tenant: { id: tenant.id, productionState: tenant.productionState },
      enqueue: ctx.documents.enqueue,
    });
  });
