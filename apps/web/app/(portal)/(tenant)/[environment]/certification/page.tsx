import { Banner, LinkButton, PageHeader } from '@ecf/ui';
import { CertificationOverview } from '../../../../../components/certification-overview.tsx';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Certificación' };

/**
 * Certification with the tax authority (CerteCF): the fifteen steps and where the account stands,
 * the next human action, the URLs to register, the data tests and the simulation (prevalidate, run,
 * follow row by row), the commercial approvals, attestations of the steps done at the tax
 * authority's portal, restarts and production. In the other environments it points to CerteCF.
 */
export default async function CertificationPage(props: { params: Promise<{ environment: string }> }) {
  const { environment } = await props.params;
  const { tenant } = await requirePageCapability('certification.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const description = `Certifique el software de ${tenant.tradeName ?? tenant.legalName} (RNC ${tenant.rnc}) con la DGII: los 15 pasos de su portal de certificación, lo que hace el servicio y lo que le toca a usted.`;
  if (environment !== 'CerteCF') {
    return (
      <>
        <PageHeader title="Certificación" description={description} />
        <Banner tone="info" title="La certificación se hace en CerteCF">
          <p>
            Los sets de prueba, las corridas y los pasos de la DGII viven en el ambiente de certificación, no
            en {ENVIRONMENT_LABELS[environment]}.
          </p>
        </Banner>
        <LinkButton href="/CerteCF/certification" variant="primary">
          Ir a la certificación en CerteCF
        </LinkButton>
      </>
    );
  }
  const { case: view, canManage } = await (await serverApi()).certification.case({ environment });
  return (
    <>
      <PageHeader title="Certificación" description={description} />
      {canManage ? null : (
        <Banner tone="info">Su rol puede seguir la certificación, pero no cambiarla.</Banner>
      )}
      <CertificationOverview view={view} canManage={canManage} runPath="/CerteCF/certification/runs" />
    </>
  );
}
