import { EmptyState, PageHeader, Panel, Table } from '@ecf/ui';
import { ecfTypeLabel } from '../../../../../components/document-labels.ts';
import { SequenceRegisterForm } from '../../../../../components/sequence-register-form.tsx';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Secuencias' };

const count = (value: number) => value.toLocaleString('es-DO');

/**
 * The eNCF ranges registered in one environment (owners and developers register; support reads):
 * type, ends, expiration, and how many numbers were used, annulled and are free.
 */
export default async function SequencesPage(props: { params: Promise<{ environment: string }> }) {
  const { environment } = await props.params;
  await requirePageCapability('annulments.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const { ranges, canManage } = await (await serverApi()).sequences.list({ environment });
  return (
    <>
      <PageHeader
        title="Secuencias"
        description={`Rangos de e-NCF autorizados por la DGII en ${ENVIRONMENT_LABELS[environment]}. Registrarlos es opcional: la emisión no reserva números; con un rango registrado, la fecha de vencimiento de cada e-CF del rango se compara con la suya.`}
      />
      <Panel title="Rangos registrados">
        <Table
          caption="Rangos registrados"
          captionHidden
          rows={ranges}
          rowKey={(range) => range.id}
          empty={
            canManage ? (
              <EmptyState
                title="Todavía no hay rangos registrados en este ambiente."
                action={{ href: '#registrar-rango', label: 'Registrar un rango' }}
              >
                Registre los rangos que la DGII le autorizó para controlar su vencimiento y cuántos números
                quedan libres.
              </EmptyState>
            ) : (
              <EmptyState title="Todavía no hay rangos registrados en este ambiente.">
                Un propietario o un desarrollador de la cuenta puede registrarlos.
              </EmptyState>
            )
          }
          columns={[
            { header: 'Tipo', cell: (range) => ecfTypeLabel(range.type), rowHeader: true, nowrap: true },
            { header: 'Desde', cell: (range) => range.from },
            { header: 'Hasta', cell: (range) => range.to },
            { header: 'Vence', cell: (range) => range.sequenceExpirationDate },
            { header: 'Usados', cell: (range) => count(range.counts.used), numeric: true },
            { header: 'Anulados', cell: (range) => count(range.counts.annulled), numeric: true },
            { header: 'Libres', cell: (range) => count(range.counts.free), numeric: true },
          ]}
        />
      </Panel>
      {canManage ? (
        <Panel title="Registrar un rango" id="registrar-rango">
          <SequenceRegisterForm environment={environment} />
        </Panel>
      ) : null}
    </>
  );
}
