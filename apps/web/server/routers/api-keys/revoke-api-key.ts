import { revokeApiKey as revokeApiKeyUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { apiKeyOf } from './api-key.schema.ts';
import { ZRevokeApiKeyInput, ZRevokeApiKeyOutput } from './revoke-api-key.schema.ts';

/** Revokes a key of the active tenant (the API refuses it at once); another tenant's is NOT_FOUND. */
export const revokeApiKey = tenantProcedure('keys.manage')
  .input(ZRevokeApiKeyInput)
  .output(ZRevokeApiKeyOutput)
  .mutation(async ({ ctx, input }) =>
    apiKeyOf(
      await revokeApiKeyUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        reference: input.apiKeyId,
        actor: ctx.actor,
        now: ctx.now,
      }),
    ),
  );
