import { createCertificationSession, getFiscalAccount } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZCertificationLinkOutput, ZPartnerAccountSessionInput } from './partner-account.schema.ts';

/**
 * The embedded certification link of one account (the Partner API's `certification-sessions`,
 * the same use-case): 15 minutes, framed by one of the Partner's registered origins only (400
 * INVALID_BROWSER_ORIGIN, 422 BROWSER_ORIGIN_NOT_ALLOWED). Nothing is stored: the link is shown
 * once.
 */
export const createPartnerCertificationLink = partnerProcedure('partner.accounts.manage')
  .input(ZPartnerAccountSessionInput)
  .output(ZCertificationLinkOutput)
  .mutation(async ({ ctx, input }) => {
    const account = await getFiscalAccount({
      database: ctx.database,
      partnerId: ctx.partner.id,
      accountId: input.accountId,
    });
    return createCertificationSession({
      database: ctx.database,
      partnerId: ctx.partner.id,
      tenantId: account.tenant.id,
      browserOrigin: input.browserOrigin,
      portalBaseUrl: ctx.certificationEmbed.portalBaseUrl,
      secret: ctx.certificationEmbed.secret,
      now: ctx.now(),
    });
  });
