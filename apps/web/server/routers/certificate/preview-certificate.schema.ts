import { z } from 'zod';
import { ZUploadCertificateInput } from './upload-certificate.schema.ts';

/** The same file and password as the upload (the same limits); nothing is stored. */
export const ZPreviewCertificateInput = ZUploadCertificateInput;

/** What the upload would install: the metadata the page compares with the active certificate. */
export const ZPreviewCertificateOutput = z.object({
  subject: z.string(),
  holderId: z.string(),
  serialNumber: z.string(),
  validFrom: z.iso.datetime(),
  validTo: z.iso.datetime(),
  keyUsage: z.array(z.string()),
});
