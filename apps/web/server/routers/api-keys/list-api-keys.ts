import { findApiKeys, grantableScopes, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { apiKeyOf } from './api-key.schema.ts';
import { ZListApiKeysInput, ZListApiKeysOutput } from './list-api-keys.schema.ts';

/** The active tenant's keys of one environment, newest first, and what the caller may grant. */
export const listApiKeys = tenantProcedure('keys.read')
  .input(ZListApiKeysInput)
  .output(ZListApiKeysOutput)
  .query(async ({ ctx, input }) => {
    const keys = await findApiKeys({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
    });
    const { principal } = ctx;
    return {
      keys: keys.map(apiKeyOf),
      grantableScopes:
        principal.kind === 'member' && hasCapability(principal, 'keys.manage')
          ? [...grantableScopes(principal.role)]
          : [],
      apiUrl: ctx.apiUrl,
    };
  });
