import { z } from 'zod';
import { ZDocumentStatus, ZRefused, ZSubmissionIssue, ZSubmissionText } from './try-it.schema.ts';

export const ZEmitInput = ZSubmissionText;

export const ZEmitOutput = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** `created`: stored now; `replayed`: this eNCF with this JSON was emitted before (the same document). */
    outcome: z.enum(['created', 'replayed']),
    documentId: z.uuid(),
    encf: z.string(),
    status: ZDocumentStatus,
    warnings: z.array(ZSubmissionIssue),
  }),
  ZRefused,
]);
