import { z } from 'zod';
import { getCertificationEvidence, type TCertificateKeyring } from '@ecf/services';
import { portalRuntime } from '../../../../../../server/runtime.ts';
import { serveTenantDownload } from '../../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

const ZRunId = z.uuid();

/** The keyring when the portal has one (the evidence signs each E32's RFCE summary with it). */
function keyringOrNone(): { keyring: TCertificateKeyring } | Record<string, never> {
  try {
    return { keyring: portalRuntime().certificateKeyring() };
  } catch {
    return {};
  }
}

/**
 * A certification run's evidence ZIP (`manifest.json` of SHA-256s; the use-case of `GET
 * /{environment}/certificacion/{runId}/evidencia`): the set as uploaded, every signed e-CF and RFCE
 * summary, the tax authority's answers, the PDFs. The guard of every download (session, active
 * tenant, `certification.read`, support's view audited); another tenant's run is 404.
 */
export async function GET(request: Request, context: { params: Promise<{ runId: string }> }) {
  const parsed = ZRunId.safeParse((await context.params).runId);
  const runId = parsed.success ? parsed.data.toLowerCase() : null;
  return serveTenantDownload({
    request,
    capability: 'certification.read',
    what: 'certification.evidence',
    input: runId === null ? null : { runId },
    load: async ({ database, tenantId }) => {
      const evidence = await getCertificationEvidence({
        database,
        tenantId,
        environment: 'CerteCF',
        runId: runId ?? '',
        now: () => new Date(),
        ...keyringOrNone(),
      });
      return {
        content: Buffer.from(evidence.content, 'base64'),
        fileName: evidence.fileName,
        contentType: 'application/zip',
      };
    },
  });
}
