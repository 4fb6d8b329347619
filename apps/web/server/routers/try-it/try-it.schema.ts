import { z } from 'zod';
import { ZDocumentStatus } from '@ecf/contract';

/** Longest JSON Try it takes (the API's submission limits still apply inside). */
export const TRY_IT_MAX_CHARACTERS = 1_000_000;

/** The JSON text as pasted: validated exactly as the REST API validates a body. */
export const ZSubmissionText = z.object({
  json: z
    .string({ error: 'Pegue un documento JSON.' })
    .min(2, 'Pegue un documento JSON.')
    .max(TRY_IT_MAX_CHARACTERS, 'El documento no puede pasar de 1.000.000 de caracteres.'),
});

/** A field error or warning as the API's SubmitResponse lists it (field path, code, message). */
export const ZSubmissionIssue = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

export const ZRefused = z.object({
  ok: z.literal(false),
  errors: z.array(ZSubmissionIssue),
  warnings: z.array(ZSubmissionIssue),
});

export { ZDocumentStatus };
