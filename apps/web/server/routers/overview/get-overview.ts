import { CERTIFICATE_WARNING_DAYS, summarizeDocuments, SUMMARY_DAYS } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetOverviewInput, ZGetOverviewOutput } from './get-overview.schema.ts';

/** Documents by status (today, last 30 days), accepted per day, and the page's warnings. */
export const getOverview = tenantProcedure('overview.read')
  .input(ZGetOverviewInput)
  .output(ZGetOverviewOutput)
  .query(async ({ ctx, input }) => {
    const summary = await summarizeDocuments({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      now: ctx.now(),
    });
    const { certificate } = summary;
    return {
      environment: summary.environment,
      today: summary.today,
      todayCounts: summary.todayCounts,
      periodCounts: summary.periodCounts,
      periodDays: SUMMARY_DAYS,
      acceptedPerDay: summary.acceptedPerDay,
      contingency: {
        count: summary.contingency.count,
        since: summary.contingency.since?.toISOString() ?? null,
      },
      openEpisode:
        summary.openEpisode === null
          ? null
          : { ...summary.openEpisode, since: summary.openEpisode.since.toISOString() },
      certificate:
        certificate.state === 'missing'
          ? {
              state: 'missing' as const,
              validTo: null,
              daysLeft: null,
              warningDays: CERTIFICATE_WARNING_DAYS,
            }
          : {
              state: certificate.state,
              validTo: certificate.validTo.toISOString(),
              daysLeft: certificate.daysLeft,
              warningDays: CERTIFICATE_WARNING_DAYS,
            },
    };
  });
