/**
 * What each export reads and how one row looks: issued documents (amounts from the signed XML the
 * tax authority got), received e-CF (amounts from the XML as it arrived) and the audit log. Each
 * source counts its rows and yields them in pages, so the job can report progress and never holds
 * more than one page of documents; the filters are the lists' own (`TIssuedFilters`,
 * `TReceivedFilters`), so an export of "the current filter" is exactly what the list shows.
 */
import type { Environment, TDatabase } from '@ecf/db';
import { readEcfXml, type TEcfDocument } from '@ecf/fiscal-core';
import { AUDIT_ACTIONS, type TAuditAction } from '../audit/audit-actions.ts';
import { receivedGroupOf } from '../inbound/received-items.ts';
import type { TReceivedGroup } from '@ecf/contract';
import {
  countAuditEntriesInRange,
  countInboundDocuments,
  countIssuedDocuments,
  findArtifactContents,
  findAuditEntriesInRange,
  findInboundPage,
  findIssuedDocumentsPage,
  findSignedXmlByDocument,
  type TAuditExportRow,
  type TIssuedFilters,
  type TReceivedFilters,
} from '../persistence/index.ts';
import { moneyCell, sumMoney, type TExportColumn, type TExportTable } from './export-files.ts';

/** Rows read per page (one statement for the rows, one for their XML). */
export const EXPORT_PAGE_SIZE = 500;

/** The stored parameters of an export: the resolved filters of its list (JSON as written). */
export type TExportParameters =
  | { kind: 'issued'; environment: Environment; filters: TIssuedFilters; label: string }
  | { kind: 'received'; environment: Environment; filters: TReceivedFilters; label: string }
  | { kind: 'audit'; from: string | null; to: string | null; action: string | null; label: string };

/** A source: how many rows (at most `cap` + 1 counted), its pages, its columns and its totals row. */
type TSource = {
  sheetName: string;
  columns: TExportColumn[];
  count: (cap: number) => Promise<number>;
  pages: () => AsyncGenerator<(string | null)[][]>;
  totals: (rows: (string | null)[][]) => (string | null)[] | null;
};

const ECF_TYPE_NAMES: Record<number, string> = {
  31: 'Crédito fiscal',
  32: 'Consumo',
  33: 'Nota de débito',
  34: 'Nota de crédito',
  41: 'Compras',
  43: 'Gastos menores',
  44: 'Regímenes especiales',
  45: 'Gubernamental',
  46: 'Exportaciones',
  47: 'Pagos al exterior',
};

/** `E31 · Crédito fiscal`. */
export function ecfTypeLabel(type: number): string {
  const code = `E${String(type).padStart(2, '0')}`;
  const name = ECF_TYPE_NAMES[type];
  return name === undefined ? code : `${code} · ${name}`;
}

const ISSUED_STATUS_LABELS: Record<string, string> = {
  queued_for_signing: 'En cola para firmar',
  signed: 'Firmado',
  sent: 'Enviado a la DGII',
  contingency: 'En contingencia',
  accepted: 'Aceptado',
  accepted_conditional: 'Aceptado condicional',
  rejected: 'Rechazado',
  cancelled: 'Anulado',
  transmission_failed: 'Envío fallido',
};

const RECEIVED_GROUP_LABELS: Record<TReceivedGroup, string> = {
  pending_approval: 'Pendiente de aprobación comercial',
  accepted: 'Aprobado',
  rejected: 'Rechazado',
  not_received: 'No recibido',
};

const AUDIT_ACTION_LABELS: Record<TAuditAction, string> = {
  [AUDIT_ACTIONS.SIGNED_IN]: 'Inició sesión',
  [AUDIT_ACTIONS.SIGN_IN_FAILED]: 'Intento de inicio de sesión fallido',
  [AUDIT_ACTIONS.SIGNED_OUT_EVERYWHERE]: 'Cerró sesión en todos los dispositivos',
  [AUDIT_ACTIONS.PASSWORD_RESET]: 'Restableció la contraseña',
  [AUDIT_ACTIONS.MEMBER_INVITED]: 'Invitó a un miembro',
  [AUDIT_ACTIONS.INVITATION_REVOKED]: 'Anuló una invitación',
  [AUDIT_ACTIONS.INVITATION_ACCEPTED]: 'Se unió a la cuenta',
  [AUDIT_ACTIONS.MEMBER_ROLE_CHANGED]: 'Cambió un rol',
  [AUDIT_ACTIONS.MEMBER_REMOVED]: 'Quitó a un miembro',
  [AUDIT_ACTIONS.ACCOUNT_UPDATED]: 'Cambió los datos de la cuenta',
  [AUDIT_ACTIONS.API_KEY_CREATED]: 'Creó una clave de API',
  [AUDIT_ACTIONS.API_KEY_REVOKED]: 'Revocó una clave de API',
  [AUDIT_ACTIONS.CERTIFICATE_UPLOADED]: 'Instaló un certificado de firma',
  [AUDIT_ACTIONS.WEBHOOK_CREATED]: 'Creó un endpoint de webhooks',
  [AUDIT_ACTIONS.WEBHOOK_UPDATED]: 'Cambió un endpoint de webhooks',
  [AUDIT_ACTIONS.WEBHOOK_RETIRED]: 'Eliminó un endpoint de webhooks',
  [AUDIT_ACTIONS.WEBHOOK_SECRET_ROTATED]: 'Rotó el secreto de un endpoint',
  [AUDIT_ACTIONS.WEBHOOK_TEST_SENT]: 'Envió una prueba de webhook',
  [AUDIT_ACTIONS.WEBHOOK_DELIVERY_REPLAYED]: 'Reenvió una entrega de webhook',
  [AUDIT_ACTIONS.SUPPORT_VIEWED]: 'Soporte consultó datos',
  [AUDIT_ACTIONS.SUPPORT_ACTED]: 'Soporte realizó una acción',
  [AUDIT_ACTIONS.EXPORT_CREATED]: 'Exportó datos',
};

/** The Spanish label of an audit action (an action without one keeps its name, never an empty cell). */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** `YYYY-MM-DD HH:mm` of an instant in Dominican Republic time (UTC-4 all year). */
export function dominicanDateTime(at: Date): string {
  return new Date(at.getTime() - 4 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** The first and last calendar day of a month (`2026-02` → 2026-02-01, 2026-02-28). */
export function monthDays(month: string): { first: string; last: string } {
  const [year = 0, number = 1] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(last).padStart(2, '0')}` };
}

/** The instants a Dominican month starts and ends (`2026-10` → 2026-10-01T04:00Z, 2026-11-01T04:00Z). */
export function dominicanMonthRange(month: string): { from: Date; to: Date } {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return {
    from: new Date(Date.UTC(year, number - 1, 1, 4)),
    to: new Date(Date.UTC(year, number, 1, 4)),
  };
}

/** A leaf of an e-CF tree (`Encabezado`, `Totales`, `MontoTotal`), or undefined. */
function leafOf(tree: TEcfDocument | undefined, ...path: string[]): string | undefined {
  let node: unknown = tree?.ECF;
  for (const name of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The tree of stored XML bytes, or undefined when there are none or they cannot be read. */
function treeOf(content: Buffer | undefined): TEcfDocument | undefined {
  return content === undefined ? undefined : readEcfXml(content.toString('utf8'));
}

const MONEY_COLUMNS: TExportColumn[] = [
  { header: 'Monto gravado', kind: 'money' },
  { header: 'Monto exento', kind: 'money' },
  { header: 'ITBIS', kind: 'money' },
  { header: 'Total', kind: 'money' },
];

/**
 * The four amounts of a document: from its XML when there is one (an amount the e-CF leaves out is
 * zero), else only the total the row keeps (a document not yet signed).
 */
function amountsOf(tree: TEcfDocument | undefined, total: string | null): (string | null)[] {
  if (tree === undefined) return [null, null, null, moneyCell(total)];
  const amount = (name: string) => moneyCell(leafOf(tree, 'Encabezado', 'Totales', name) ?? '0');
  return [
    amount('MontoGravadoTotal'),
    amount('MontoExento'),
    amount('TotalITBIS'),
    moneyCell(leafOf(tree, 'Encabezado', 'Totales', 'MontoTotal') ?? total),
  ];
}

/** The totals row of a documents table: its count, then the sum of each money column. */
function documentTotals(columns: TExportColumn[], rows: (string | null)[][]): (string | null)[] {
  return columns.map((column, index) => {
    if (index === 0) return 'Totales';
    if (index === 1) return `${rows.length} ${rows.length === 1 ? 'documento' : 'documentos'}`;
    return column.kind === 'money' ? sumMoney(rows.map((row) => row[index] ?? null)) : null;
  });
}

function issuedSource(
  database: TDatabase,
  tenantId: string,
  parameters: Extract<TExportParameters, { kind: 'issued' }>,
): TSource {
  const scope = { tenantId, environment: parameters.environment, filters: parameters.filters };
  const columns: TExportColumn[] = [
    { header: 'e-NCF', kind: 'text' },
    { header: 'Tipo', kind: 'text' },
    { header: 'Fecha de emisión', kind: 'text' },
    { header: 'RNC o cédula del comprador', kind: 'text' },
    { header: 'Nombre del comprador', kind: 'text' },
    { header: 'Estado', kind: 'text' },
    ...MONEY_COLUMNS,
  ];
  return {
    sheetName: 'Emitidos',
    columns,
    count: async (cap) => (await countIssuedDocuments(database, { ...scope, cap })).count,
    pages: async function* () {
      let after: { submittedAt: Date; id: string } | undefined;
      for (;;) {
        const documents = await findIssuedDocumentsPage(database, {
          ...scope,
          ...(after ? { after } : {}),
          take: EXPORT_PAGE_SIZE,
        });
        if (documents.length === 0) return;
        const xml = await findSignedXmlByDocument(database, {
          tenantId,
          documentIds: documents.map((document) => document.id),
        });
        yield documents.map((document) => {
          const tree = treeOf(xml.get(document.id));
          return [
            document.encf,
            ecfTypeLabel(document.type),
            document.issueDate.toISOString().slice(0, 10),
            leafOf(tree, 'Encabezado', 'Comprador', 'RNCComprador') ??
              leafOf(tree, 'Encabezado', 'Comprador', 'IdentificadorExtranjero') ??
              document.buyerRnc,
            leafOf(tree, 'Encabezado', 'Comprador', 'RazonSocialComprador') ?? null,
            ISSUED_STATUS_LABELS[document.status] ?? document.status,
            ...amountsOf(tree, document.totalAmount.toFixed(2)),
          ];
        });
        const last = documents.at(-1);
        if (documents.length < EXPORT_PAGE_SIZE || last === undefined) return;
        after = { submittedAt: last.submittedAt, id: last.id };
      }
    },
    totals: (rows) => documentTotals(columns, rows),
  };
}

function receivedSource(
  database: TDatabase,
  tenantId: string,
  parameters: Extract<TExportParameters, { kind: 'received' }>,
): TSource {
  const scope = {
    tenantId,
    environment: parameters.environment,
    kind: 'ecf' as const,
    filters: parameters.filters,
  };
  const columns: TExportColumn[] = [
    { header: 'e-NCF', kind: 'text' },
    { header: 'Tipo', kind: 'text' },
    { header: 'Fecha de emisión', kind: 'text' },
    { header: 'RNC del emisor', kind: 'text' },
    { header: 'Nombre del emisor', kind: 'text' },
    { header: 'Estado', kind: 'text' },
    ...MONEY_COLUMNS,
    { header: 'Recibido (hora de RD)', kind: 'text' },
  ];
  async function* pages() {
    let after: { receivedAt: Date; id: string } | undefined;
    for (;;) {
      const received = await findInboundPage(database, {
        ...scope,
        ...(after ? { after } : {}),
        take: EXPORT_PAGE_SIZE,
      });
      if (received.length === 0) return;
      yield received;
      const last = received.at(-1);
      if (received.length < EXPORT_PAGE_SIZE || last === undefined) return;
      after = { receivedAt: last.receivedAt, id: last.id };
    }
  }
  return {
    sheetName: 'Recibidos',
    columns,
    count: async (cap) => (await countInboundDocuments(database, { ...scope, cap })).count,
    pages: async function* () {
      for await (const page of pages()) {
        const xml = await findArtifactContents(database, {
          tenantId,
          artifactIds: page.flatMap((row) => (row.xmlArtifactId === null ? [] : [row.xmlArtifactId])),
        });
        yield page.map((row) => {
          const tree =
            row.status === 'received' && row.xmlArtifactId !== null
              ? treeOf(xml.get(row.xmlArtifactId))
              : undefined;
          return [
            row.encf,
            ecfTypeLabel(row.ecfType),
            row.issueDate === null ? null : row.issueDate.toISOString().slice(0, 10),
            row.issuerRnc,
            leafOf(tree, 'Encabezado', 'Emisor', 'RazonSocialEmisor') ?? row.issuerName,
            RECEIVED_GROUP_LABELS[receivedGroupOf(row)],
            ...amountsOf(tree, row.totalAmount === null ? null : row.totalAmount.toFixed(2)),
            dominicanDateTime(row.receivedAt),
          ];
        });
      }
    },
    totals: (rows) => documentTotals(columns, rows),
  };
}

/** An audit entry's data in words: `clave: valor` pairs (never a secret: the log holds none). */
function detailOf(entry: TAuditExportRow): string {
  return Object.entries(entry.data)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}

function auditSource(
  database: TDatabase,
  tenantId: string,
  parameters: Extract<TExportParameters, { kind: 'audit' }>,
): TSource {
  const range = {
    tenantId,
    from: parameters.from === null ? null : new Date(parameters.from),
    to: parameters.to === null ? null : new Date(parameters.to),
    action: parameters.action,
  };
  return {
    sheetName: 'Auditoría',
    columns: [
      { header: 'Fecha y hora (hora de RD)', kind: 'text' },
      { header: 'Quién', kind: 'text' },
      { header: 'Correo', kind: 'text' },
      { header: 'Acción', kind: 'text' },
      { header: 'Objeto', kind: 'text' },
      { header: 'Detalle', kind: 'text' },
      { header: 'Dirección IP', kind: 'text' },
    ],
    count: (cap) => countAuditEntriesInRange(database, { ...range, cap }),
    pages: async function* () {
      let beforeId: string | null = null;
      for (;;) {
        const entries = await findAuditEntriesInRange(database, {
          ...range,
          beforeId,
          take: EXPORT_PAGE_SIZE,
        });
        if (entries.length === 0) return;
        yield entries.map((entry) => [
          dominicanDateTime(entry.createdAt),
          entry.actorName === null
            ? 'Sistema'
            : `${entry.actorName}${entry.actorIsSupport ? ' (soporte)' : ''}`,
          entry.actorEmail,
          auditActionLabel(entry.action),
          entry.targetId,
          detailOf(entry),
          entry.ip,
        ]);
        const last = entries.at(-1);
        if (entries.length < EXPORT_PAGE_SIZE || last === undefined) return;
        beforeId = last.id;
      }
    },
    totals: () => null,
  };
}

/** The source of an export's parameters. */
export function sourceOf(database: TDatabase, tenantId: string, parameters: TExportParameters): TSource {
  switch (parameters.kind) {
    case 'issued':
      return issuedSource(database, tenantId, parameters);
    case 'received':
      return receivedSource(database, tenantId, parameters);
    case 'audit':
      return auditSource(database, tenantId, parameters);
  }
}

/**
 * Reads every page of a source into its table; `onPage` hears how many rows are done after each
 * page (the job's progress).
 */
export async function readExportTable(
  source: TSource,
  onPage?: (rowsDone: number) => Promise<void>,
): Promise<TExportTable> {
  const rows: (string | null)[][] = [];
  for await (const page of source.pages()) {
    rows.push(...page);
    if (onPage) await onPage(rows.length);
  }
  return { sheetName: source.sheetName, columns: source.columns, rows, totals: source.totals(rows) };
}
