import { createApiKey as createApiKeyUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { apiKeyOf } from './api-key.schema.ts';
import { ZCreateApiKeyInput, ZCreateApiKeyOutput } from './create-api-key.schema.ts';

/**
 * Creates a key in the active tenant; the clear key is in this answer only. The use-case refuses a
 * scope the caller's role may not grant (FORBIDDEN, `details.reason` scope_not_grantable).
 */
export const createApiKey = tenantProcedure('keys.manage')
  .input(ZCreateApiKeyInput)
  .output(ZCreateApiKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { key, apiKey } = await createApiKeyUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      scopes: input.scopes,
      name: input.name,
      actor: ctx.actor,
      now: ctx.now,
    });
    return {
      key,
      apiKey: apiKeyOf({ ...apiKey, lastUsedAt: null, revokedAt: null }),
    };
  });
