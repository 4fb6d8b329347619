import Link from 'next/link';
import { Banner, Button, PageHeader, Panel, Select, StatusBadge, Table } from '@ecf/ui';
import styles from '../../../../components/partner-billing.module.css';
import { requirePartnerPageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Consumo' };

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month `offset` months from `month` (YYYY-MM). */
function shiftMonth(month: string, offset: number): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(year, number - 1 + offset, 1)).toISOString().slice(0, 7);
}

/** "octubre de 2026". */
function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('es-DO', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

const count = (value: number) => new Intl.NumberFormat('es-DO').format(value);

const PAID_STATUS = {
  paid: { label: 'Al día', tone: 'success' },
  overdue: { label: 'Pago vencido', tone: 'danger' },
  unpaid: { label: 'Sin plan pagado', tone: 'warning' },
} as const;

/**
 * `/partner/billing?month=YYYY-MM`: accepted e-CF in eCF across the Partner's accounts by Dominican
 * month (the Partner API's `GET /billing/usage`), a month picker (previous / next and a list of the
 * last 24 months), the plan's quota as a meter and the Partner's billing page.
 */
export default async function PartnerBillingPage(props: { searchParams: Promise<{ month?: string }> }) {
  await requirePartnerPageCapability('partner.billing.read');
  const { month } = await props.searchParams;
  const usage = await (
    await serverApi()
  ).partner.billing(month !== undefined && MONTH.test(month) ? { month } : {});
  type TRow = (typeof usage.accounts)[number];
  const previous = shiftMonth(usage.month, -1);
  const next = usage.month < usage.currentMonth ? shiftMonth(usage.month, 1) : null;
  const months = Array.from({ length: 24 }, (_, index) => shiftMonth(usage.currentMonth, -index));
  if (!months.includes(usage.month)) months.push(usage.month);
  const paid = PAID_STATUS[usage.paidStatus];
  const isCurrent = usage.month === usage.currentMonth;
  const figure = `${count(usage.accepted)} de ${count(usage.quota)}`;
  return (
    <>
      <PageHeader
        title="Consumo"
        description="e-CF aceptados por la DGII en producción (eCF) en todas sus cuentas, por mes en hora de República Dominicana. TesteCF y CerteCF no cuentan."
      />
      <nav className={styles.picker} aria-label="Elegir el mes">
        <Link href={`/partner/billing?month=${previous}`}>← {monthLabel(previous)}</Link>
        <form method="get" action="/partner/billing">
          <Select
            label="Mes"
            name="month"
            defaultValue={usage.month}
            options={months.map((value) => ({ value, label: monthLabel(value) }))}
          />
          <Button type="submit" variant="secondary">
            Ver
          </Button>
        </form>
        {next === null ? null : <Link href={`/partner/billing?month=${next}`}>{monthLabel(next)} →</Link>}
      </nav>
      <Panel title={`Plan ${usage.plan} · ${monthLabel(usage.month)}${isCurrent ? ' (mes en curso)' : ''}`}>
        <div className={styles.quota}>
          {usage.quota > 0 ? (
            <>
              <p className={styles.figure} id="quota-figure">
                {figure} e-CF aceptados
              </p>
              <meter
                min={0}
                max={usage.quota}
                low={Math.floor(usage.quota * 0.8)}
                high={Math.floor(usage.quota * 0.95)}
                optimum={0}
                value={Math.min(usage.accepted, usage.quota)}
                aria-label="Cuota del plan usada"
                aria-valuetext={figure}
                aria-describedby="quota-figure"
              />
              <p>
                {usage.accepted >= usage.quota
                  ? 'Cuota agotada: la emisión en eCF se rechaza hasta el próximo mes o hasta un cambio de plan.'
                  : `Quedan ${count(usage.remaining)} e-CF en este mes.`}
              </p>
            </>
          ) : (
            <p>
              {count(usage.accepted)} e-CF aceptados. Su plan no tiene una cuota definida: consulte con el
              operador.
            </p>
          )}
          <p>
            Estado del pago: <StatusBadge tone={paid.tone}>{paid.label}</StatusBadge>
          </p>
          {usage.billingUrl === null ? (
            <p>El operador aún no ha registrado su página de facturación.</p>
          ) : (
            <p>
              <a href={usage.billingUrl} rel="noopener noreferrer">
                Ver facturas y pagos
              </a>{' '}
              (página de facturación de su plan).
            </p>
          )}
          {usage.paidStatus === 'paid' ? null : (
            <Banner tone="warning">
              Sin un plan pagado (o con el pago vencido después del período de gracia) la emisión en eCF se
              rechaza con el enlace de facturación.
            </Banner>
          )}
        </div>
      </Panel>
      <Panel title="Por cuenta">
        <Table
          caption={`Consumo de ${monthLabel(usage.month)} por cuenta`}
          captionHidden
          rows={usage.accounts}
          rowKey={(row) => row.fiscalAccountId}
          empty="Ningún e-CF aceptado en este mes."
          columns={[
            { header: 'Id externo', rowHeader: true, cell: (row: TRow) => row.externalTenantId ?? '—' },
            {
              header: 'Cuenta',
              cell: (row: TRow) => (
                <Link href={`/partner/accounts/${row.fiscalAccountId}`}>{row.fiscalAccountId}</Link>
              ),
            },
            { header: 'Aceptados', numeric: true, cell: (row: TRow) => count(row.accepted) },
          ]}
        />
      </Panel>
    </>
  );
}
