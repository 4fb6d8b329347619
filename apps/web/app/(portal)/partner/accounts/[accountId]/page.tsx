import { notFound } from 'next/navigation';
import { PageHeader, Panel, StatusBadge, type TStatusTone } from '@ecf/ui';
import { hasPartnerCapability } from '@ecf/services';
import { PartnerAccountSessions } from '../../../../../components/partner-account-sessions.tsx';
import styles from '../../../../../components/webhooks.module.css';
import {
  CASE_STATE_LABELS,
  CASE_STATE_TONES,
  PRODUCTION_STATE_LABELS,
} from '../../../../../lib/certification-schemas.ts';
import { formatDate, formatDateTime } from '../../../../../lib/format.ts';
import { requirePartnerPageCapability } from '../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuenta fiscal' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TDetail = Awaited<ReturnType<Awaited<ReturnType<typeof serverApi>>['partner']['account']>>;

/** Where the account stands, in one phrase: what it lacks first. */
function statusOf(detail: TDetail): { label: string; tone: TStatusTone } {
  const { account, certificate, certification } = detail;
  if (account.productionState === 'suspended') return { label: 'Producción suspendida', tone: 'danger' };
  if (certificate === null) return { label: 'Falta el certificado de firma', tone: 'warning' };
  if (certificate.daysLeft < 0) return { label: 'Certificado vencido', tone: 'danger' };
  if (account.productionState === 'active') return { label: 'Emite en producción', tone: 'success' };
  if (certification.state === 'failed') return { label: 'Certificación detenida', tone: 'danger' };
  return { label: 'En certificación', tone: 'info' };
}

function daysLeftText(days: number): string {
  if (days < 0) return `Vencido hace ${-days} ${days === -1 ? 'día' : 'días'}`;
  if (days === 0) return 'Vence hoy';
  return `${days} ${days === 1 ? 'día' : 'días'}`;
}

/**
 * `/partner/accounts/{id}`: one of the Partner's accounts: where it stands, its production state,
 * the signing certificate's expiry, the certification step (N of 15, the case's state, what comes
 * next), and the two links the Partner API opens for it (the embedded certification and a
 * certificate upload session), shown once. Another Partner's id is the not-found page.
 */
export default async function PartnerAccountPage(props: { params: Promise<{ accountId: string }> }) {
  const { partner } = await requirePartnerPageCapability('partner.accounts.read');
  const { accountId } = await props.params;
  if (!UUID.test(accountId)) notFound();
  const api = await serverApi();
  const detail = await orNotFound(api.partner.account({ accountId }));
  const canManage = hasPartnerCapability(partner.role, 'partner.accounts.manage');
  const origins = canManage ? (await api.partner.origins()).origins.map((row) => row.origin) : [];
  const { account, certificate, certification } = detail;
  const status = statusOf(detail);
  return (
    <>
      <PageHeader
        title={account.tradeName ?? account.legalName}
        description={`Cuenta fiscal de ${partner.name}: RNC ${account.rnc}.`}
      />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>Estado</dt>
          <dd>
            <StatusBadge tone={status.tone}>{status.label}</StatusBadge>
          </dd>
          <dt>Razón social</dt>
          <dd>{account.legalName}</dd>
          <dt>Id externo</dt>
          <dd className={styles.code}>{account.externalTenantId}</dd>
          <dt>Producción (eCF)</dt>
          <dd data-testid="production-state">
            {PRODUCTION_STATE_LABELS[account.productionState] ?? account.productionState}
          </dd>
          <dt>Creada</dt>
          <dd>{formatDateTime(account.createdAt)}</dd>
        </dl>
        <p>
          <a href="/partner/accounts">Volver a las cuentas</a>
        </p>
      </Panel>
      <Panel title="Certificado de firma">
        {certificate === null ? (
          <p>
            La cuenta no tiene un certificado activo: ábrale una sesión de carga abajo para que lo suba desde
            su página.
          </p>
        ) : (
          <dl className={styles.facts}>
            <dt>Titular</dt>
            <dd className={styles.code}>{certificate.subject}</dd>
            <dt>Número de serie</dt>
            <dd className={styles.code}>{certificate.serialNumber}</dd>
            <dt>Válido hasta</dt>
            <dd>{formatDate(certificate.validTo)}</dd>
            <dt>Días restantes</dt>
            <dd data-testid="certificate-days-left">
              <StatusBadge
                tone={
                  certificate.daysLeft < 0 ? 'danger' : certificate.daysLeft <= 30 ? 'warning' : 'success'
                }
              >
                {daysLeftText(certificate.daysLeft)}
              </StatusBadge>
            </dd>
          </dl>
        )}
      </Panel>
      <Panel title="Certificación">
        <dl className={styles.facts}>
          <dt>Estado</dt>
          <dd>
            <StatusBadge tone={CASE_STATE_TONES[certification.state] ?? 'neutral'}>
              {CASE_STATE_LABELS[certification.state] ?? certification.state}
            </StatusBadge>
          </dd>
          <dt>Paso actual</dt>
          <dd data-testid="certification-step">
            {certification.stepNumber} de 15: {certification.stepTitle}
          </dd>
          <dt>Pasos completados</dt>
          <dd>{certification.completedSteps} de 15</dd>
          <dt>Próxima acción</dt>
          <dd>{certification.nextAction ?? 'Ninguna: la DGII autorizó la emisión.'}</dd>
        </dl>
      </Panel>
      {canManage ? (
        <Panel title="Enlaces para su aplicación">
          <p>
            El enlace de certificación muestra estos pasos dentro de su aplicación (15 minutos). La sesión de
            carga permite que su página suba el certificado de la cuenta (30 minutos, 5 intentos).
          </p>
          <PartnerAccountSessions accountId={account.id} legalName={account.legalName} origins={origins} />
        </Panel>
      ) : null}
    </>
  );
}
