import { AppError, assertWebhookTarget } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZCheckWebhookUrlInput, ZCheckWebhookUrlOutput } from './check-webhook-url.schema.ts';
import { WEBHOOK_URL_MESSAGES } from './webhook.schema.ts';

/**
 * The URL rules as the field is typed: the same check (DNS included) the save runs, answered as
 * data for the field. Changes nothing; saving checks again.
 */
export const checkWebhookUrl = tenantProcedure('webhooks.manage')
  .input(ZCheckWebhookUrlInput)
  .output(ZCheckWebhookUrlOutput)
  .query(async ({ ctx, input }) => {
    try {
      await assertWebhookTarget(input.url.trim(), { allowPrivateTargets: ctx.webhooks.allowPrivateTargets });
      return { ok: true, code: null, message: null };
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'INVALID_REQUEST') throw error;
      const code = typeof error.details['code'] === 'string' ? error.details['code'] : 'url_invalid';
      return {
        ok: false,
        code,
        message:
          WEBHOOK_URL_MESSAGES[code as keyof typeof WEBHOOK_URL_MESSAGES] ?? WEBHOOK_URL_MESSAGES.url_invalid,
      };
    }
  });
