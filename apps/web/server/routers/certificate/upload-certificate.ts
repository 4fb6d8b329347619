import { storeTenantCertificate } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { certificateOf } from './certificate.schema.ts';
import { ZUploadCertificateInput, ZUploadCertificateOutput } from './upload-certificate.schema.ts';

/**
 * An owner installs the tenant's signing certificate (the previous one becomes inactive), through
 * the use-case the admin CLI calls: the same checks, each refusal with its spec code
 * (CERTIFICATE_PASSWORD_INVALID, CERTIFICATE_FILE_INVALID...), shown on its field by the page.
 */
export const uploadCertificate = tenantProcedure('certificate.manage')
  .input(ZUploadCertificateInput)
  .output(ZUploadCertificateOutput)
  .mutation(async ({ ctx, input }) =>
    certificateOf(
      await storeTenantCertificate({
        database: ctx.database,
        keyring: ctx.certificateKeyring(),
        tenantId: ctx.tenant.id,
        p12: Buffer.from(input.p12Base64, 'base64'),
        password: input.password,
        now: ctx.now(),
        actor: ctx.actor,
      }),
    ),
  );
