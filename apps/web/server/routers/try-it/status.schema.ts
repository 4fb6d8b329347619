import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZTimelineEntry } from '../documents/get-document.schema.ts';
import { ZDocumentStatus } from './try-it.schema.ts';

export const ZStatusInput = z.object({ documentId: ZUuid });

export const ZStatusOutput = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  status: ZDocumentStatus,
  /** No later step changes the status (Try it stops watching). */
  isFinal: z.boolean(),
  timeline: z.array(ZTimelineEntry),
});
