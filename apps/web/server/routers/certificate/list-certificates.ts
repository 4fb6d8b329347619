import { findTenantCertificates } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { certificateOf } from './certificate.schema.ts';
import { ZListCertificatesInput, ZListCertificatesOutput } from './list-certificates.schema.ts';

/** The active tenant's certificates, newest first: metadata and history, never the key. */
export const listCertificates = tenantProcedure('certificate.read')
  .input(ZListCertificatesInput)
  .output(ZListCertificatesOutput)
  .query(async ({ ctx }) => ({
    certificates: (await findTenantCertificates({ database: ctx.database, tenantId: ctx.tenant.id })).map(
      certificateOf,
    ),
  }));
