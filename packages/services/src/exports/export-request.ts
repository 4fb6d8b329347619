/**
 * What a person may ask to export (the portal's export forms): issued or received documents of an
 * environment for a month or the list's current filter, or the audit log for a month and an action,
 * as CSV or Excel. The list filters are the lists' own schemas, so "the current filter" accepts
 * exactly what the list accepts.
 */
import { z } from 'zod';
import { ZIssuedListQuery } from '@ecf/contract';
import { issuedSearchFiltersOf, ZIssuedSearchQuery } from '../documents/search-issued-documents.ts';
import { ZReceivedListQuery } from '@ecf/contract';
import { receivedSearchFiltersOfQuery, ZReceivedSearchQuery } from '../inbound/search-received-documents.ts';
import type { TIssuedFilters, TReceivedFilters } from '../persistence/index.ts';
import { dominicanMonthRange, monthDays, type TExportParameters } from './export-sources.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const ZExportFormat = z.enum(EXPORT_FORMATS, { error: 'Elija CSV o Excel.' });
export const ZExportMonth = z
  .string({ error: 'Elija un mes.' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Elija un mes válido (AAAA-MM).');
const ZExportEnvironment = z.enum(['TesteCF', 'CerteCF', 'eCF'], { error: 'Ambiente no válido.' });

/** Issued documents: a month (of `FechaEmision`), or the list's query and search as the page holds them. */
export const ZIssuedExportRequest = z.strictObject({
  environment: ZExportEnvironment,
  format: ZExportFormat,
  month: ZExportMonth.optional(),
  query: ZIssuedListQuery.optional(),
  search: ZIssuedSearchQuery.optional(),
});

/** Received e-CF: a month (of reception, Dominican time, like the list's dates), or the list's query and search. */
export const ZReceivedExportRequest = z.strictObject({
  environment: ZExportEnvironment,
  format: ZExportFormat,
  month: ZExportMonth.optional(),
  query: ZReceivedListQuery.optional(),
  search: ZReceivedSearchQuery.optional(),
});

/** The audit log: a month (Dominican time) and one action, each optional. */
export const ZAuditExportRequest = z.strictObject({
  format: ZExportFormat,
  month: ZExportMonth.optional(),
  action: z
    .string()
    .regex(/^[a-z_]{1,32}\.[a-z_]{1,32}$/, 'Acción no válida.')
    .optional(),
});

export type TIssuedExportRequest = z.output<typeof ZIssuedExportRequest>;
export type TReceivedExportRequest = z.output<typeof ZReceivedExportRequest>;
export type TAuditExportRequest = z.output<typeof ZAuditExportRequest>;

export type TExportRequest =
  | ({ kind: 'issued' } & TIssuedExportRequest)
  | ({ kind: 'received' } & TReceivedExportRequest)
  | ({ kind: 'audit' } & TAuditExportRequest);

/** Drops undefined members (the filters are stored as JSON and compared as written). */
function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** The stored parameters of a request: the list's filters resolved, a month replacing the list's dates. */
export function exportParametersOf(request: TExportRequest): TExportParameters {
  switch (request.kind) {
    case 'issued': {
      const { cursor: _cursor, limit: _limit, ...query } = request.query ?? {};
      const filters: TIssuedFilters = defined({
        ...query,
        ...(request.search ? issuedSearchFiltersOf(request.search) : {}),
        ...(request.month
          ? { issueDateFrom: monthDays(request.month).first, issueDateTo: monthDays(request.month).last }
          : {}),
      });
      return { kind: 'issued', environment: request.environment, filters, label: request.month ?? 'filtro' };
    }
    case 'received': {
      const { cursor: _cursor, limit: _limit, ...query } = request.query ?? {};
      const filters: TReceivedFilters = defined({
        ...query,
        ...(request.search ? receivedSearchFiltersOfQuery(request.search) : {}),
        ...(request.month ? { from: monthDays(request.month).first, to: monthDays(request.month).last } : {}),
      });
      return {
        kind: 'received',
        environment: request.environment,
        filters,
        label: request.month ?? 'filtro',
      };
    }
    case 'audit': {
      const range = request.month ? dominicanMonthRange(request.month) : null;
      return {
        kind: 'audit',
        from: range ? range.from.toISOString() : null,
        to: range ? range.to.toISOString() : null,
        action: request.action ?? null,
        label: request.month ?? 'todo',
      };
    }
  }
}
