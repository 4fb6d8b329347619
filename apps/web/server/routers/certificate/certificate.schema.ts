import { z } from 'zod';
import type { TTenantCertificateMetadata } from '@ecf/services';

/** A certificate as the page shows it: metadata only, never the key, the file or the password. */
export const ZCertificate = z.object({
  id: z.uuid(),
  subject: z.string(),
  holderId: z.string().nullable(),
  serialNumber: z.string(),
  validFrom: z.iso.datetime(),
  validTo: z.iso.datetime(),
  keyUsage: z.array(z.string()),
  active: z.boolean(),
  installedAt: z.iso.datetime(),
});

export function certificateOf(row: TTenantCertificateMetadata): z.infer<typeof ZCertificate> {
  return {
    id: row.id,
    subject: row.subject,
    holderId: row.holderId,
    serialNumber: row.serialNumber,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo.toISOString(),
    keyUsage: row.keyUsage,
    active: row.active && row.revokedAt === null,
    installedAt: row.createdAt.toISOString(),
  };
}
