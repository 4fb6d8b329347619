/**
 * The paging members of every list query of the REST API (clarification 6): `limit` as query text,
 * 1 to 100 (default 50, applied by each list), and `cursor`, the previous page's `nextCursor`.
 */
import { z } from 'zod';

export const ZPageLimitText = z
  .string()
  .regex(/^\d{1,3}$/, 'an integer from 1 to 100')
  .transform(Number)
  .pipe(z.number().int().min(1).max(100))
  .optional()
  .describe('1 to 100, default 50');

export const ZPageCursorText = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe('nextCursor of the previous page, unmodified; filters must stay the same');
