import { rotateWebhookSecret as rotateWebhookSecretUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRotateWebhookSecretInput, ZRotateWebhookSecretOutput } from './rotate-webhook-secret.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/**
 * A new signing secret (in this answer only); the previous one keeps signing for `overlapSeconds`.
 * CONFLICT `WEBHOOK_ROTATION_IN_PROGRESS` while a previous window is open.
 */
export const rotateWebhookSecret = tenantProcedure('webhooks.manage')
  .input(ZRotateWebhookSecretInput)
  .output(ZRotateWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, signingSecret } = await rotateWebhookSecretUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      overlapSeconds: input.overlapSeconds,
      keyring: ctx.certificateKeyring(),
      actor: ctx.actor,
      now: ctx.now,
    });
    return { endpoint: webhookEndpointOf(endpoint), signingSecret };
  });
