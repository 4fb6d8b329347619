import { getCertificationCase, getTenant, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { caseViewOf } from './certification-view.ts';
import { ZCaseInput, ZCaseOutput } from './certification.schema.ts';

/**
 * The active tenant's certification (the use-case of `GET /{environment}/certificacion`): the
 * fifteen steps and how each was completed, the next human action, the runs, the commercial
 * approvals, production and the URLs to register. CerteCF only (CONFLICT
 * CERTIFICATION_ENVIRONMENT_REQUIRED elsewhere); a case not started yet when there is none.
 */
export const getCase = tenantProcedure('certification.read')
  .input(ZCaseInput)
  .output(ZCaseOutput)
  .query(async ({ ctx, input }) => {
    const tenant = await getTenant({ database: ctx.database, reference: ctx.tenant.id });
    const view = await getCertificationCase({
      database: ctx.database,
      tenant: { id: tenant.id, productionState: tenant.productionState },
      environment: input.environment,
      publicBaseUrl: ctx.publicBaseUrl,
    });
    return { case: caseViewOf(view), canManage: hasCapability(ctx.principal, 'certification.manage') };
  });
