import { findPartnerWebhookEndpoints } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListEndpointsOutput } from './partner-procedures.schema.ts';

/** The Partner's webhook endpoints (retired last). */
export const listPartnerEndpoints = partnerProcedure('partner.webhooks.read')
  .output(ZListEndpointsOutput)
  .query(async ({ ctx }) => ({
    endpoints: await findPartnerWebhookEndpoints({
      database: ctx.database,
      partnerId: ctx.partner.id,
      now: ctx.now,
    }),
  }));
