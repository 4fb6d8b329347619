import { createRouter } from '../../trpc/init.ts';
import { listCertificates } from './list-certificates.ts';
import { uploadCertificate } from './upload-certificate.ts';

/** The active tenant's signing certificate: everyone reads its metadata, owners upload. */
export const certificateRouter = createRouter({
  list: listCertificates,
  upload: uploadCertificate,
});
