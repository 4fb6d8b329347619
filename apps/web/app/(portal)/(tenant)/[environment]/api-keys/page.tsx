import { EmptyState, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasCapability } from '@ecf/services';
import { ApiKeyCreateForm } from '../../../../../components/api-key-create-form.tsx';
import { ApiKeyRevokeButton } from '../../../../../components/api-key-revoke-button.tsx';
import styles from '../../../../../components/api-key-create-form.module.css';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { formatDateTime, formatShortDateTime } from '../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Claves API' };

/**
 * The tenant's API keys of one environment (owners and developers): prefix, name, scopes, dates,
 * revocation. Creating one shows its clear key once; a member only grants the scopes of their role.
 */
export default async function ApiKeysPage(props: { params: Promise<{ environment: string }> }) {
  const { environment } = await props.params;
  const { principal } = await requirePageCapability('keys.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const canManage = hasCapability(principal, 'keys.manage');
  const { keys, grantableScopes, apiUrl } = await (await serverApi()).apiKeys.list({ environment });
  type TKey = (typeof keys)[number];
  return (
    <>
      <PageHeader
        title="Claves API"
        description={`Claves de ${ENVIRONMENT_LABELS[environment]}: envíelas en la cabecera X-API-KEY a ${apiUrl}/${environment}/…`}
      />
      <Panel title="Claves">
        <Table
          caption={`Claves API de ${ENVIRONMENT_LABELS[environment]}`}
          captionHidden
          rows={keys}
          rowKey={(key) => key.id}
          empty={
            canManage && grantableScopes.length > 0 ? (
              <EmptyState
                title="Aún no hay claves en este ambiente."
                action={{ href: '#crear-clave', label: 'Crear una clave' }}
              >
                Su sistema necesita una para emitir y consultar e-CF en {environment}.
              </EmptyState>
            ) : (
              <EmptyState title="Aún no hay claves en este ambiente.">
                Un propietario o un desarrollador de la cuenta puede crearlas.
              </EmptyState>
            )
          }
          columns={[
            { header: 'Nombre', rowHeader: true, cell: (key: TKey) => key.name },
            {
              header: 'Prefijo',
              cell: (key: TKey) => <code className={styles.scopeCode}>{key.prefix}…</code>,
            },
            { header: 'Alcances', cell: (key: TKey) => key.scopes.join(', ') },
            { header: 'Creada', nowrap: true, cell: (key: TKey) => formatShortDateTime(key.createdAt) },
            {
              header: 'Último uso',
              nowrap: true,
              cell: (key: TKey) => (key.lastUsedAt === null ? 'Nunca' : formatShortDateTime(key.lastUsedAt)),
            },
            {
              header: 'Estado',
              cell: (key: TKey) =>
                key.revokedAt === null ? (
                  <StatusBadge tone="success">Activa</StatusBadge>
                ) : (
                  <StatusBadge tone="neutral">Revocada el {formatDateTime(key.revokedAt)}</StatusBadge>
                ),
            },
            ...(canManage
              ? [
                  {
                    header: 'Acción',
                    cell: (key: TKey) =>
                      key.revokedAt === null ? (
                        <ApiKeyRevokeButton apiKeyId={key.id} name={key.name} prefix={key.prefix} />
                      ) : null,
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      {canManage && grantableScopes.length > 0 ? (
        <Panel title="Crear una clave" id="crear-clave">
          <ApiKeyCreateForm environment={environment} grantableScopes={grantableScopes} />
        </Panel>
      ) : null}
    </>
  );
}
