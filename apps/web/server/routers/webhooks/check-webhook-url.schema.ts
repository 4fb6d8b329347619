import { z } from 'zod';

export const ZCheckWebhookUrlInput = z.object({ url: z.string().max(4096) });
export const ZCheckWebhookUrlOutput = z.object({
  ok: z.boolean(),
  /** The refusal's code (`address_not_public`...), null when the URL passes. */
  code: z.string().nullable(),
  /** The message to show on the field, null when the URL passes. */
  message: z.string().nullable(),
});
