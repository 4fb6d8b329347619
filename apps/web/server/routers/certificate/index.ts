import { createRouter } from '../../trpc/init.ts';
import { listCertificates } from './list-certificates.ts';
import { previewCertificate } from './preview-certificate.ts';
import { uploadCertificate } from './upload-certificate.ts';

/**
 * The active tenant's signing certificate: everyone reads its metadata, owners preview a file
 * (what it would install, nothing stored) and upload it.
 */
export const certificateRouter = createRouter({
  list: listCertificates,
  preview: previewCertificate,
  upload: uploadCertificate,
});
