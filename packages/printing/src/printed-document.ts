/**
 * The printed representation laid out after the tax authority's illustrative models: issuer at the
 * top left, type name and eNCF at the top right, buyer under a rule, the items table, totals on the
 * right, and the QR with the security code and signature date at the bottom left of every page.
 * The header, buyer block and table header repeat on each page; "Página X de Y" appears once the
 * document needs more than one page.
 *
 * Plain TypeScript, no JSX: elements are built with `createElement` (as `h`) so that Node's own
 * TypeScript support, which does not understand JSX, can run the file.
 */
import { Document, Page, Path, Rect, StyleSheet, Svg, Text, View } from '@react-pdf/renderer';
import type { DocumentProps } from '@react-pdf/renderer';
import { createElement as h, Fragment } from 'react';
import type { ReactElement } from 'react';
import type { TPrintLabelled, TPrintModel } from './print-model.ts';
import type { TQrSymbol } from './qr-image.ts';

const CM = 72 / 2.54;
const ACCENT = '#1f4e79';
const RULE = '#5b9bd5';
/** 80 pt is 28 mm: above the 22 mm minimum of the tax authority for the QR. */
const QR_SIZE = 80;
const FOOTER_BOTTOM = 0.8 * CM;
const FOOTER_HEIGHT = QR_SIZE + 26;

const COLUMNS = {
  quantity: '9%',
  description: '43%',
  unitPrice: '16%',
  itbis: '14%',
  amount: '18%',
} as const;

const styles = StyleSheet.create({
  page: {
    fontFamily: 'Helvetica',
    fontSize: 8.5,
    color: '#111111',
    paddingTop: 0.9 * CM,
    paddingHorizontal: 1.5 * CM,
    paddingBottom: FOOTER_BOTTOM + FOOTER_HEIGHT + 12,
  },
  headerRow: { flexDirection: 'row', justifyContent: 'space-between' },
  issuer: { width: '56%' },
  document: { width: '44%', alignItems: 'flex-end' },
  tradeName: { fontFamily: 'Helvetica-Bold', fontSize: 13, color: ACCENT, marginBottom: 2 },
  legalName: { fontSize: 10, marginBottom: 1 },
  typeName: {
    fontFamily: 'Helvetica-Bold',
    fontSize: 12,
    color: ACCENT,
    textAlign: 'right',
    marginBottom: 3,
  },
  line: { marginBottom: 1.5 },
  rightLine: { marginBottom: 1.5, textAlign: 'right' },
  bold: { fontFamily: 'Helvetica-Bold' },
  rule: { borderBottomWidth: 1, borderBottomColor: RULE, marginVertical: 7 },
  section: { marginBottom: 1 },
  sectionTitle: { fontFamily: 'Helvetica-Bold', color: ACCENT, marginBottom: 2 },
  notice: { fontFamily: 'Helvetica-Bold', color: '#b00020', textAlign: 'center', marginBottom: 4 },
  row: { flexDirection: 'row' },
  headCell: {
    backgroundColor: '#dcdcdc',
    fontFamily: 'Helvetica-Bold',
    textAlign: 'center',
    paddingVertical: 3,
    paddingHorizontal: 3,
    borderTopWidth: 0.5,
    borderRightWidth: 0.5,
    borderBottomWidth: 0.5,
    borderColor: '#888888',
  },
  firstCell: { borderLeftWidth: 0.5 },
  cell: {
    paddingVertical: 2.5,
    paddingHorizontal: 3,
    borderRightWidth: 0.5,
    borderBottomWidth: 0.5,
    borderColor: '#888888',
  },
  center: { textAlign: 'center' },
  number: { textAlign: 'right' },
  amountCell: { backgroundColor: '#f2f2f2' },
  detail: { fontSize: 7, color: '#444444' },
  summary: { flexDirection: 'row', justifyContent: 'flex-end', marginTop: 8 },
  totals: { width: '46%' },
  totalRow: { flexDirection: 'row', justifyContent: 'flex-end', marginBottom: 1.5 },
  totalLabel: {
    fontFamily: 'Helvetica-Bold',
    width: '62%',
    textAlign: 'right',
    paddingRight: 4,
    paddingVertical: 1,
  },
  totalValue: {
    width: '38%',
    textAlign: 'right',
    borderWidth: 0.5,
    borderColor: '#888888',
    backgroundColor: '#f2f2f2',
    paddingVertical: 1,
    paddingHorizontal: 3,
  },
  totalEmphasis: { fontFamily: 'Helvetica-Bold', fontSize: 9.5 },
  currencyTitle: {
    fontFamily: 'Helvetica-Bold',
    color: ACCENT,
    textAlign: 'right',
    marginTop: 6,
    marginBottom: 2,
  },
  footer: {
    position: 'absolute',
    left: 2 * CM,
    right: 1.5 * CM,
    bottom: FOOTER_BOTTOM,
    height: FOOTER_HEIGHT,
    flexDirection: 'row',
    justifyContent: 'space-between',
    alignItems: 'flex-end',
  },
  qr: { width: QR_SIZE, height: QR_SIZE },
  stamp: { fontSize: 8, marginTop: 1 },
  pageNumber: { fontSize: 8, color: '#444444', textAlign: 'right' },
});

function Labelled({
  rows,
  align,
}: {
  rows: ReadonlyArray<TPrintLabelled>;
  align: 'left' | 'right';
}): ReactElement {
  return h(
    Fragment,
    null,
    rows.map((row) =>
      h(
        Text,
        { key: row.label, style: align === 'right' ? styles.rightLine : styles.line },
        h(Text, { style: styles.bold }, row.label, ': '),
        row.value,
      ),
    ),
  );
}

function Header({ model }: { model: TPrintModel }): ReactElement {
  const { issuer } = model;
  const modified = model.reference.find((row) => row.label === 'NCF Modificado');
  return h(
    View,
    { fixed: true },
    model.environment === 'eCF'
      ? null
      : h(
          Text,
          { style: styles.notice },
          'Documento emitido en el ambiente ',
          model.environment,
          ' de la DGII: sin validez fiscal',
        ),
    h(
      View,
      { style: styles.headerRow },
      h(
        View,
        { style: styles.issuer },
        h(Text, { style: styles.tradeName }, issuer.tradeName ?? issuer.legalName),
        issuer.tradeName === undefined ? null : h(Text, { style: styles.legalName }, issuer.legalName),
        issuer.branch === undefined ? null : h(Text, { style: styles.line }, issuer.branch),
        h(Text, { style: styles.line }, 'RNC ', issuer.rnc),
        issuer.address === undefined ? null : h(Text, { style: styles.line }, 'Dirección: ', issuer.address),
        issuer.phones.length === 0
          ? null
          : h(Text, { style: styles.line }, 'Teléfono: ', issuer.phones.join(' / ')),
        issuer.email === undefined ? null : h(Text, { style: styles.line }, 'Correo: ', issuer.email),
        issuer.website === undefined ? null : h(Text, { style: styles.line }, issuer.website),
        h(Text, { style: styles.line }, h(Text, { style: styles.bold }, 'Fecha Emisión: '), model.issueDate),
      ),
      h(
        View,
        { style: styles.document },
        h(Text, { style: styles.typeName }, model.typeName),
        h(Text, { style: styles.rightLine }, h(Text, { style: styles.bold }, 'e-NCF: '), model.eNcf),
        model.sequenceExpirationDate === undefined
          ? null
          : h(
              Text,
              { style: styles.rightLine },
              h(Text, { style: styles.bold }, 'Fecha Vencimiento: '),
              model.sequenceExpirationDate,
            ),
        modified === undefined ? null : h(Labelled, { rows: [modified], align: 'right' }),
      ),
    ),
    h(View, { style: styles.rule }),
    model.buyer.length === 0 && model.terms.length === 0
      ? null
      : h(
          Fragment,
          null,
          h(
            View,
            { style: styles.section },
            h(Labelled, { rows: model.buyer, align: 'left' }),
            h(Labelled, { rows: model.terms, align: 'left' }),
          ),
          h(View, { style: styles.rule }),
        ),
  );
}

function Reference({ model }: { model: TPrintModel }): ReactElement | null {
  if (model.reference.length === 0) return null;
  return h(
    View,
    { wrap: false },
    h(Text, { style: styles.sectionTitle }, 'Información de Referencia'),
    h(Labelled, { rows: model.reference, align: 'left' }),
    h(View, { style: styles.rule }),
  );
}

function ItemsTable({ model }: { model: TPrintModel }): ReactElement {
  return h(
    View,
    null,
    h(
      View,
      { style: styles.row, fixed: true },
      h(Text, { style: [styles.headCell, styles.firstCell, { width: COLUMNS.quantity }] }, 'Cantidad'),
      h(Text, { style: [styles.headCell, { width: COLUMNS.description }] }, 'Descripción'),
      h(Text, { style: [styles.headCell, { width: COLUMNS.unitPrice }] }, 'Precio'),
      h(Text, { style: [styles.headCell, { width: COLUMNS.itbis }] }, 'ITBIS'),
      h(Text, { style: [styles.headCell, { width: COLUMNS.amount }] }, 'Valor'),
    ),
    model.items.map((item, index) =>
      h(
        View,
        { style: styles.row, key: index, wrap: false },
        h(
          Text,
          { style: [styles.cell, styles.firstCell, styles.center, { width: COLUMNS.quantity }] },
          item.quantity,
        ),
        h(
          Text,
          { style: [styles.cell, { width: COLUMNS.description }] },
          item.description,
          item.detail === undefined ? null : h(Text, { style: styles.detail }, `\n${item.detail}`),
        ),
        h(Text, { style: [styles.cell, styles.number, { width: COLUMNS.unitPrice }] }, item.unitPrice),
        h(Text, { style: [styles.cell, styles.number, { width: COLUMNS.itbis }] }, item.itbis),
        h(
          Text,
          { style: [styles.cell, styles.number, styles.amountCell, { width: COLUMNS.amount }] },
          item.amount,
        ),
      ),
    ),
  );
}

function TotalRows({ rows }: { rows: ReadonlyArray<TPrintLabelled> }): ReactElement {
  return h(
    Fragment,
    null,
    rows.map((row) =>
      h(
        View,
        { style: styles.totalRow, key: row.label },
        h(
          Text,
          {
            style: row.isEmphasized === true ? [styles.totalLabel, styles.totalEmphasis] : styles.totalLabel,
          },
          row.label,
          ':',
        ),
        h(
          Text,
          {
            style: row.isEmphasized === true ? [styles.totalValue, styles.totalEmphasis] : styles.totalValue,
          },
          row.value,
        ),
      ),
    ),
  );
}

function Totals({ model }: { model: TPrintModel }): ReactElement {
  return h(
    View,
    { style: styles.summary, wrap: false },
    h(
      View,
      { style: styles.totals },
      h(TotalRows, { rows: model.totals }),
      model.otherCurrency.length === 0
        ? null
        : h(
            Fragment,
            null,
            h(Text, { style: styles.currencyTitle }, 'Otra Moneda'),
            h(TotalRows, { rows: model.otherCurrency }),
          ),
    ),
  );
}

function Footer({ model, qr }: { model: TPrintModel; qr: TQrSymbol }): ReactElement {
  return h(
    View,
    { style: styles.footer, fixed: true },
    h(
      View,
      null,
      h(
        Svg,
        { style: styles.qr, viewBox: `0 0 ${qr.size} ${qr.size}` },
        h(Rect, { x: 0, y: 0, width: qr.size, height: qr.size, fill: '#ffffff' }),
        h(Path, { d: qr.path, fill: '#000000' }),
      ),
      h(Text, { style: styles.stamp }, 'Código de Seguridad: ', model.securityCode),
      h(Text, { style: styles.stamp }, 'Fecha de Firma Digital: ', model.signedAt),
    ),
    h(Text, {
      style: styles.pageNumber,
      render: ({ pageNumber, totalPages }) => (totalPages > 1 ? `Página ${pageNumber} de ${totalPages}` : ''),
    }),
  );
}

/**
 * The whole document: one letter-size page flow that react-pdf breaks into pages. A plain function
 * returning the `<Document>` element (no hooks), so the renderer receives a `Document` root.
 */
export function printedDocument(model: TPrintModel, qr: TQrSymbol): ReactElement<DocumentProps> {
  return h(
    Document,
    {
      title: `${model.typeName} ${model.eNcf}`,
      author: model.issuer.legalName,
      creator: 'e-CF',
      producer: 'e-CF',
    },
    h(
      Page,
      { size: 'LETTER', style: styles.page },
      h(Header, { model }),
      h(Reference, { model }),
      h(ItemsTable, { model }),
      h(Totals, { model }),
      h(Footer, { model, qr }),
    ),
  );
}
