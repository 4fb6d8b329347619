import { PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasCapability } from '@ecf/services';
import { AccountProfileForm } from '../../../../components/account-profile-form.tsx';
import { AccountSettingsForm } from '../../../../components/account-settings-form.tsx';
import styles from '../../../../components/account-forms.module.css';
import { ENVIRONMENT_LABELS } from '../../../../lib/environments.ts';
import { formatDateTime } from '../../../../lib/format.ts';
import { requirePageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Cuenta' };

const PRODUCTION_STATE_LABELS = {
  not_requested: 'No solicitada',
  pending: 'En trámite',
  active: 'Activa',
  suspended: 'Suspendida',
} as const;

const none = <span aria-label="sin dato">—</span>;

/**
 * The account: the profile documents are completed from, the production authorization per
 * environment, and the settings emission reads (buyer e-mail, payment term, deferred sending).
 * Everyone reads it; owners change it (each change in the audit log).
 */
export default async function AccountPage() {
  const { principal } = await requirePageCapability('account.read');
  const canManage = hasCapability(principal, 'account.manage');
  const account = await (await serverApi()).account.get();
  return (
    <>
      <PageHeader
        title="Cuenta"
        description={`RNC ${account.rnc}. Datos del emisor y configuración que usan los documentos de la cuenta.`}
      />
      <Panel title="Estado por ambiente">
        <p>
          Autorización de producción: <strong>{PRODUCTION_STATE_LABELS[account.productionState]}</strong>.
        </p>
        <Table
          caption="Estado de la cuenta en cada ambiente"
          captionHidden
          rows={account.environments}
          rowKey={(entry) => entry.environment}
          columns={[
            { header: 'Ambiente', rowHeader: true, cell: (entry) => ENVIRONMENT_LABELS[entry.environment] },
            {
              header: 'Emisión',
              cell: (entry) =>
                entry.open ? (
                  <StatusBadge tone="success">Abierta</StatusBadge>
                ) : (
                  <StatusBadge tone="warning">Cerrada hasta activar producción</StatusBadge>
                ),
            },
            {
              header: 'Correo al comprador',
              cell: (entry) =>
                entry.buyerEmail ? (
                  <StatusBadge tone="success">Activado</StatusBadge>
                ) : (
                  <StatusBadge tone="neutral">Desactivado</StatusBadge>
                ),
            },
          ]}
        />
      </Panel>
      <Panel title="Perfil del emisor">
        {canManage ? (
          <AccountProfileForm account={account} />
        ) : (
          <dl className={styles.details}>
            <dt>Razón social</dt>
            <dd>{account.legalName}</dd>
            <dt>Nombre comercial</dt>
            <dd>{account.tradeName ?? none}</dd>
            <dt>Dirección</dt>
            <dd>{account.address ?? none}</dd>
            <dt>Teléfonos</dt>
            <dd>{account.phones.length > 0 ? account.phones.join(', ') : none}</dd>
            <dt>Correo electrónico fiscal</dt>
            <dd>{account.fiscalEmail ?? none}</dd>
          </dl>
        )}
      </Panel>
      <Panel title="Configuración de emisión">
        {canManage ? (
          <AccountSettingsForm account={account} />
        ) : (
          <dl className={styles.details}>
            <dt>Correo al comprador</dt>
            <dd>
              {account.buyerEmailEnvironments.length > 0
                ? account.buyerEmailEnvironments.join(', ')
                : 'Desactivado en todos los ambientes'}
            </dd>
            <dt>Plazo de pago</dt>
            <dd>{account.paymentTermDays === null ? 'Sin plazo' : `${account.paymentTermDays} días`}</dd>
            <dt>Envío diferido</dt>
            <dd>{account.deferredSendAuthorized ? 'Autorizado' : 'No autorizado'}</dd>
          </dl>
        )}
        <p className={styles.hint}>Última modificación: {formatDateTime(account.updatedAt)}</p>
      </Panel>
    </>
  );
}
