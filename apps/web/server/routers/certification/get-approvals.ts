import { getCertificationApprovals } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { approvalsViewOf } from './certification-view.ts';
import { ZApprovalsInput, ZApprovalsOutput } from './certification.schema.ts';

/**
 * The last send of the commercial approval tests, row by row (the use-case of `GET
 * /{environment}/certificacion/aprobaciones-comerciales`); null before the first.
 */
export const getApprovals = tenantProcedure('certification.read')
  .input(ZApprovalsInput)
  .output(ZApprovalsOutput)
  .query(async ({ ctx, input }) => {
    const send = await getCertificationApprovals({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
    });
    return { commercialApprovals: send === null ? null : approvalsViewOf(send) };
  });
