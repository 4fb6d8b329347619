import Link from 'next/link';
import { PageHeader, Panel, Table } from '@ecf/ui';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Consumo' };

/** The previous Dominican month of `month` (YYYY-MM). */
function previousMonth(month: string): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, number - 2, 1));
  return date.toISOString().slice(0, 7);
}

/** `/partner/billing?month=YYYY-MM`: accepted e-CF in eCF across the Partner's accounts, by Dominican month. */
export default async function PartnerBillingPage(props: { searchParams: Promise<{ month?: string }> }) {
  await requirePartnerPageCapability('partner.billing.read');
  const { month } = await props.searchParams;
  const usage = await (
    await serverApi()
  ).partner.billing(month !== undefined && /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? { month } : {});
  type TRow = (typeof usage.accounts)[number];
  return (
    <>
      <PageHeader
        title="Consumo"
        description={`e-CF aceptados por la DGII en producción, mes ${usage.month} (hora de República Dominicana). Plan ${usage.plan}: ${usage.accepted} de ${usage.quota} (quedan ${usage.remaining}).`}
      />
      <p>
        <Link href={`/partner/billing?month=${previousMonth(usage.month)}`}>Mes anterior</Link>
      </p>
      <Panel title="Por cuenta">
        <Table
          caption={`Consumo de ${usage.month} por cuenta`}
          captionHidden
          rows={usage.accounts}
          rowKey={(row) => row.fiscalAccountId}
          empty="Ningún e-CF aceptado en este mes."
          columns={[
            { header: 'Id externo', rowHeader: true, cell: (row: TRow) => row.externalTenantId ?? '—' },
            { header: 'Cuenta', cell: (row: TRow) => <code>{row.fiscalAccountId}</code> },
            { header: 'Aceptados', cell: (row: TRow) => row.accepted },
          ]}
        />
      </Panel>
    </>
  );
}
