/**
 * Parsing the received lists' queries (their schemas are the contract's, `document-lists.ts`) into
 * the service's error.
 */
import type { z } from 'zod';
import { AppError } from '../shared/errors.ts';

/**
 * Parses a received list's query; a bad filter, limit or unknown parameter is 400
 * `INVALID_RECEIVED_DOCUMENTS_QUERY` with `details.issues[] { path, code, message }`.
 */
export function parseReceivedQuery<TSchema extends z.ZodType>(
  schema: TSchema,
  query: unknown,
): z.output<TSchema> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  throw new AppError(
    'INVALID_RECEIVED_DOCUMENTS_QUERY',
    parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`).join('; '),
    {
      details: {
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : ''),
          code: issue.code,
          message: issue.message,
        })),
      },
    },
  );
}
