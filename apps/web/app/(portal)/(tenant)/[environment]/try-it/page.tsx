import { notFound } from 'next/navigation';
import { PageHeader } from '@ecf/ui';
import { TryItConsole } from '../../../../../components/try-it-console.tsx';
import { requirePageCapability } from '../../../../../server/page-access.ts';

export const metadata = { title: 'Probar' };

/**
 * Try it (TesteCF only): choose an example or paste JSON, run the preflight, emit, and watch the
 * document until the tax authority's final answer. Emission from the portal is test emission only.
 */
export default async function TryItPage(props: { params: Promise<{ environment: string }> }) {
  const { tenant } = await requirePageCapability('emission.test');
  const { environment } = await props.params;
  if (environment !== 'TesteCF') notFound();
  return (
    <>
      <PageHeader
        title="Probar la emisión"
        description={`Emita un e-CF de prueba en TesteCF como ${tenant.tradeName ?? tenant.legalName}: prevalide, emita y siga su estado hasta la respuesta de la DGII.`}
      />
      <TryItConsole />
    </>
  );
}
