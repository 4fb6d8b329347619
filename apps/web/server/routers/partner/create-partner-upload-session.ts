import { createCertificateUploadSession, getFiscalAccount } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZPartnerAccountSessionInput, ZUploadSessionOutput } from './partner-account.schema.ts';

/**
 * A certificate upload session of one account for the Partner's page (the Partner API's
 * `certificate-upload-sessions`, the same use-case): bound to a registered origin, 30 minutes,
 * five attempts; the upload token is in this answer only (its SHA-256 is kept). `uploadUrl` is
 * the API's address the browser PUTs the PKCS#12 to.
 */
export const createPartnerUploadSession = partnerProcedure('partner.accounts.manage')
  .input(ZPartnerAccountSessionInput)
  .output(ZUploadSessionOutput)
  .mutation(async ({ ctx, input }) => {
    const account = await getFiscalAccount({
      database: ctx.database,
      partnerId: ctx.partner.id,
      accountId: input.accountId,
    });
    const session = await createCertificateUploadSession({
      database: ctx.database,
      partnerId: ctx.partner.id,
      tenantId: account.tenant.id,
      browserOrigin: input.browserOrigin,
      purpose: 'upload',
      now: ctx.now,
    });
    return {
      uploadId: session.uploadId,
      uploadToken: session.uploadToken,
      uploadUrl: `${ctx.apiUrl.replace(/\/+$/, '')}/partner/v1/certificate-upload-sessions/${session.uploadId}`,
      browserOrigin: session.browserOrigin,
      maxAttempts: session.maxAttempts,
      expiresAt: session.expiresAt.toISOString(),
    };
  });
