/**
 * Try it shows a refused submission the way the REST API answers it: the issues of a 422
 * `VALIDATION_FAILED` on their field paths, and any other client error of the use-case (a body
 * over the limits, an eNCF used with other content...) as one issue with its code. Anything else
 * stays an error (500 without detail).
 */
import { AppError } from '@ecf/services';
import type { z } from 'zod';
import type { ZRefused, ZSubmissionIssue } from './try-it.schema.ts';

type TIssue = z.infer<typeof ZSubmissionIssue>;

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

const issuesOf = (value: unknown): TIssue[] =>
  Array.isArray(value)
    ? value.map((issue: { path?: unknown; code?: unknown; message?: unknown }) => ({
        path: textOf(issue.path),
        code: textOf(issue.code),
        message: textOf(issue.message),
      }))
    : [];

/** The refusal of a client error; rethrows anything that is not one. */
export function refusalOf(error: unknown): z.infer<typeof ZRefused> {
  if (!(error instanceof AppError) || error.status >= 500 || error.status === 404) throw error;
  if (error.code === 'VALIDATION_FAILED')
    return { ok: false, errors: issuesOf(error.body['errors']), warnings: issuesOf(error.body['warnings']) };
  const path = error.code === 'ENCF_CONFLICT' ? 'encf' : '';
  return { ok: false, errors: [{ path, code: error.code, message: error.message }], warnings: [] };
}

/** `JSON.parse` as the API's content parser does it; a refusal when the text is not JSON. */
export function parseSubmission(json: string): { body: unknown } | z.infer<typeof ZRefused> {
  try {
    return { body: JSON.parse(json) as unknown };
  } catch (error) {
    return {
      ok: false,
      errors: [
        {
          path: '',
          code: 'INVALID_JSON',
          message: `The body is not valid JSON: ${error instanceof Error ? error.message : 'parse error'}`,
        },
      ],
      warnings: [],
    };
  }
}
