import { z } from 'zod';
import { ZAccountSearchText } from '../../account-search.ts';

/** Page of support's tenant search (/accounts). */
export const SUPPORT_TENANT_PAGE_SIZE = 50;

/**
 * Without input: every tenant (the header's switcher). With it: support's tenant search (issue 27):
 * `q` the start of an RNC or part of a name (`accountSearchOf`), 50 a page from `offset`.
 */
export const ZListTenantsInput = z
  .object({
    q: ZAccountSearchText,
    offset: z.number().int().min(0).max(1_000_000).default(0),
  })
  .optional();
export const ZListTenantsOutput = z.object({
  tenants: z.array(z.object({ id: z.uuid(), rnc: z.string(), name: z.string() })),
  /** How many match; `capped` when there are more than `count` (the count stops there). */
  total: z.object({ count: z.number().int().nonnegative(), capped: z.boolean() }),
});
