import { z } from 'zod';
import { ZCertificate } from './certificate.schema.ts';

export const ZListCertificatesInput = z.void();
export const ZListCertificatesOutput = z.object({
  /** Every certificate installed, newest first (the active one, if any, among them). */
  certificates: z.array(ZCertificate),
});
