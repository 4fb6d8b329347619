import type { TDatabase } from '@ecf/db';
import { findCertificatesOfTenant, type TTenantCertificateMetadata } from '../persistence/index.ts';

/** Every certificate of a tenant, newest first, metadata only (never the key, file or password). */
export async function findTenantCertificates(options: {
  database: TDatabase;
  tenantId: string;
}): Promise<TTenantCertificateMetadata[]> {
  return findCertificatesOfTenant(options.database, options.tenantId);
}
