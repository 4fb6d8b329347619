import { z } from 'zod';
import { ZRefused, ZSubmissionIssue, ZSubmissionText } from './try-it.schema.ts';

export const ZPreflightInput = ZSubmissionText;

export const ZPreflightOutput = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), encf: z.string(), type: z.string(), warnings: z.array(ZSubmissionIssue) }),
  ZRefused,
]);
