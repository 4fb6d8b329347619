/**
 * The tRPC context of the request being served by Next.js (route handler or server component):
 * the process's runtime and the session checked in the database for this request.
 */
import 'server-only';
import { headers } from 'next/headers';
import { getPortalSession } from '../../auth/portal-session.ts';
import { requestMetaOf } from '../request-meta.ts';
import { portalRuntime } from '../runtime.ts';
import { toTrpcError } from './app-errors.ts';
import type { TTrpcContext } from './context.ts';

export async function createRequestContext(): Promise<TTrpcContext> {
  const runtime = portalRuntime();
  let session: Awaited<ReturnType<typeof getPortalSession>>;
  try {
    session = await getPortalSession();
  } catch (error) {
    // No database connection for the session's row: 503 SERVICE_UNAVAILABLE, not a 500.
    throw toTrpcError(error);
  }
  return {
    database: runtime.database,
    session,
    request: requestMetaOf(await headers()),
    mail: runtime.mail,
    signInPolicy: runtime.signInPolicy,
    apiUrl: runtime.apiUrl,
    publicBaseUrl: runtime.publicBaseUrl,
    now: () => new Date(),
    certificateKeyring: runtime.certificateKeyring,
    documents: runtime.documents,
    webhooks: runtime.webhooks,
    partnerPlans: runtime.partnerPlans,
    certificationEmbed: { secret: runtime.embedSecret, portalBaseUrl: runtime.publicUrl.href },
  };
}
