import { sendTestWebhook as sendTestWebhookUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZSendTestWebhookInput, ZSendTestWebhookOutput } from './send-test-webhook.schema.ts';

/** Queues a `webhook.test` event delivered to this endpoint only (it shows in its deliveries log). */
export const sendTestWebhook = tenantProcedure('webhooks.manage')
  .input(ZSendTestWebhookInput)
  .output(ZSendTestWebhookOutput)
  .mutation(async ({ ctx, input }) =>
    sendTestWebhookUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      enqueue: ctx.webhooks.enqueue,
      actor: ctx.actor,
      now: ctx.now,
    }),
  );
