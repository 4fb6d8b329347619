import { z } from 'zod';
import { accountSearchOf, ACCOUNT_SEARCH_HINT, AppError } from '@ecf/services';

/**
 * An account search box's text (support's tenant search, a Partner's accounts; issue 27): blank,
 * the start of an RNC or cédula, or part of a name (`accountSearchOf` of @ecf/services).
 */
export const ZAccountSearchText = z
  .string()
  .max(100)
  .refine((text) => text.trim() === '' || accountSearchOf(text.trim()) !== null, ACCOUNT_SEARCH_HINT)
  .optional();

/** The search of a text, null when blank; a text that is neither an RNC's start nor a name is INVALID_REQUEST on `q`. */
export function accountSearchOfText(text: string | undefined) {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return null;
  const search = accountSearchOf(trimmed);
  if (search === null)
    throw new AppError('INVALID_REQUEST', ACCOUNT_SEARCH_HINT, {
      details: { issues: [{ path: 'q', code: 'custom', message: ACCOUNT_SEARCH_HINT }] },
    });
  return search;
}
