import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@ecf/ui';
import { CertificationRunView } from '../../../../../../../components/certification-run-view.tsx';
import { PART_LABELS } from '../../../../../../../lib/certification-schemas.ts';
import { requirePageCapability } from '../../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Corrida de certificación' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One certification run row by row (CerteCF only): the workbook row, CasoPrueba, type, eNCF, state,
 * the tax authority's messages of a rejected row, the document's page, a resend for a receipt still
 * waiting; refreshed every 2 seconds while it runs; its evidence ZIP. Another tenant's run is 404.
 */
export default async function CertificationRunPage(props: {
  params: Promise<{ environment: string; runId: string }>;
}) {
  const { environment, runId } = await props.params;
  await requirePageCapability('certification.read');
  if (environment !== 'CerteCF' || !UUID.test(runId)) notFound();
  const { run, canManage } = await orNotFound((await serverApi()).certification.run({ environment, runId }));
  return (
    <>
      <PageHeader
        title={`Corrida de ${(PART_LABELS[run.part] ?? run.part).toLowerCase()}`}
        description={<Link href="/CerteCF/certification">Volver a Certificación</Link>}
      />
      <CertificationRunView
        initial={run}
        canManage={canManage}
        evidenceHref={`/api/certification/runs/${run.runId}/evidence`}
        documentPath="/CerteCF/documents"
      />
    </>
  );
}
