import { previewTenantCertificate } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZPreviewCertificateInput, ZPreviewCertificateOutput } from './preview-certificate.schema.ts';

/**
 * Reads an uploaded PKCS#12 with its password and answers what installing it would put in place
 * (subject, serial, validity), storing nothing: before replacing the active certificate the page
 * shows both. The upload's checks and refusals (CERTIFICATE_PASSWORD_INVALID...), so a file the
 * upload would refuse is refused here, on its field, before any confirmation. A mutation: the
 * file and password travel in the body, never in a URL or a cache.
 */
export const previewCertificate = tenantProcedure('certificate.manage')
  .input(ZPreviewCertificateInput)
  .output(ZPreviewCertificateOutput)
  .mutation(({ ctx, input }) => {
    const preview = previewTenantCertificate({
      p12: Buffer.from(input.p12Base64, 'base64'),
      password: input.password,
      now: ctx.now(),
      actor: ctx.actor,
    });
    return {
      ...preview,
      validFrom: preview.validFrom.toISOString(),
      validTo: preview.validTo.toISOString(),
    };
  });
