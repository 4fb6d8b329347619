import { z } from 'zod';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

const STATUS_COUNTS = z.record(z.string(), z.number().int());

export const ZGetOverviewInput = z.object({
  environment: z.enum(ENVIRONMENTS, { error: 'Ambiente no válido.' }),
});

/** The overview of the active tenant in one environment (see summarizeDocuments of @ecf/services). */
export const ZGetOverviewOutput = z.object({
  environment: z.enum(ENVIRONMENTS),
  today: z.string(),
  todayCounts: z.object({ byStatus: STATUS_COUNTS, total: z.number().int() }),
  periodCounts: z.object({ byStatus: STATUS_COUNTS, total: z.number().int() }),
  periodDays: z.number().int(),
  acceptedPerDay: z.array(z.object({ day: z.string(), count: z.number().int() })),
  contingency: z.object({ count: z.number().int(), since: z.iso.datetime().nullable() }),
  openEpisode: z.object({ code: z.string(), service: z.string(), since: z.iso.datetime() }).nullable(),
  certificate: z.object({
    state: z.enum(['missing', 'expired', 'expiring', 'valid']),
    validTo: z.iso.datetime().nullable(),
    daysLeft: z.number().int().nullable(),
    warningDays: z.number().int(),
  }),
});
