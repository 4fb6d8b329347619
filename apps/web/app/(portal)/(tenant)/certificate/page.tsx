import { Banner, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import { hasCapability } from '@ecf/services';
import { CertificateUploadForm } from '../../../../components/certificate-upload-form.tsx';
import styles from '../../../../components/certificate.module.css';
import { formatDate, formatDateTime, formatShortDate, formatShortDateTime } from '../../../../lib/format.ts';
import { requirePageCapability } from '../../../../server/page-access.ts';
import { serverApi } from '../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Certificado' };

const KEY_USAGE_LABELS: Record<string, string> = {
  digitalSignature: 'Firma digital',
  nonRepudiation: 'No repudio',
  keyEncipherment: 'Cifrado de llaves',
  dataEncipherment: 'Cifrado de datos',
  keyAgreement: 'Acuerdo de llaves',
  keyCertSign: 'Firma de certificados',
  cRLSign: 'Firma de CRL',
  encipherOnly: 'Solo cifrado',
  decipherOnly: 'Solo descifrado',
};

function keyUsageText(keyUsage: readonly string[]): string {
  return keyUsage.length === 0
    ? 'No registrado'
    : keyUsage.map((usage) => KEY_USAGE_LABELS[usage] ?? usage).join(', ');
}

/**
 * The tenant's signing certificate: the active one's metadata (never the key, the file or the
 * password), the history of every certificate installed, and, for owners, the upload.
 */
export default async function CertificatePage() {
  const { principal } = await requirePageCapability('certificate.read');
  const canManage = hasCapability(principal, 'certificate.manage');
  const { certificates } = await (await serverApi()).certificate.list();
  const active = certificates.find((certificate) => certificate.active) ?? null;
  const now = Date.now();
  type TCertificate = (typeof certificates)[number];
  return (
    <>
      <PageHeader
        title="Certificado"
        description="El certificado digital con el que se firman los e-CF de la cuenta."
      />
      <Panel title="Certificado activo">
        {active === null ? (
          <Banner tone="warning" title="La cuenta no tiene certificado">
            Sin certificado no se pueden firmar ni enviar documentos.
          </Banner>
        ) : (
          <>
            {Date.parse(active.validTo) < now ? (
              <Banner tone="danger" title="El certificado venció">
                Suba uno vigente para seguir firmando.
              </Banner>
            ) : null}
            <dl className={styles.details} data-testid="active-certificate">
              <dt>Titular</dt>
              <dd>{active.subject}</dd>
              <dt>Identificación del titular</dt>
              <dd>{active.holderId ?? 'No indicada'}</dd>
              <dt>Número de serie</dt>
              <dd className={styles.code}>{active.serialNumber}</dd>
              <dt>Vigencia</dt>
              <dd>
                Del {formatDate(active.validFrom)} al {formatDate(active.validTo)}
              </dd>
              <dt>Uso de la llave</dt>
              <dd>{keyUsageText(active.keyUsage)}</dd>
              <dt>Instalado</dt>
              <dd>{formatDateTime(active.installedAt)}</dd>
            </dl>
          </>
        )}
      </Panel>
      {canManage ? (
        <Panel title="Subir un certificado">
          <CertificateUploadForm
            active={
              active === null
                ? null
                : {
                    subject: active.subject,
                    serialNumber: active.serialNumber,
                    validFrom: active.validFrom,
                    validTo: active.validTo,
                  }
            }
          />
        </Panel>
      ) : null}
      <Panel title="Historial">
        <Table
          caption="Certificados instalados"
          captionHidden
          rows={certificates}
          rowKey={(certificate) => certificate.id}
          empty="Aún no se ha instalado ningún certificado."
          columns={[
            { header: 'Titular', rowHeader: true, cell: (certificate: TCertificate) => certificate.subject },
            { header: 'Identificación', cell: (certificate: TCertificate) => certificate.holderId ?? '—' },
            {
              header: 'Número de serie',
              cell: (certificate: TCertificate) => (
                <span className={styles.code}>{certificate.serialNumber}</span>
              ),
            },
            {
              header: 'Vigencia',
              nowrap: true,
              cell: (certificate: TCertificate) =>
                `${formatShortDate(certificate.validFrom)} – ${formatShortDate(certificate.validTo)}`,
            },
            {
              header: 'Uso de la llave',
              cell: (certificate: TCertificate) => keyUsageText(certificate.keyUsage),
            },
            {
              header: 'Instalado',
              nowrap: true,
              cell: (certificate: TCertificate) => formatShortDateTime(certificate.installedAt),
            },
            {
              header: 'Estado',
              cell: (certificate: TCertificate) =>
                certificate.active ? (
                  <StatusBadge tone="success">Activo</StatusBadge>
                ) : (
                  <StatusBadge tone="neutral">Inactivo</StatusBadge>
                ),
            },
          ]}
        />
      </Panel>
    </>
  );
}
