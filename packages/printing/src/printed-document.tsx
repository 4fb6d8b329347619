// Automatic JSX runtime whatever tsconfig the caller's tooling finds (tsx run from the repository root sees none).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
/**
 * The printed representation laid out after the tax authority's illustrative models: issuer at the
 * top left, type name and eNCF at the top right, buyer under a rule, the items table, totals on the
 * right, and the QR with the security code and signature date at the bottom left of every page.
 * The header, buyer block and table header repeat on each page; "Página X de Y" appears once the
 * document needs more than one page.
 */
import { Document, Page, Path, Rect, StyleSheet, Svg, Text, View } from '@react-pdf/renderer';
import type { DocumentProps } from '@react-pdf/renderer';
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
  return (
    <>
      {rows.map((row) => (
        <Text key={row.label} style={align === 'right' ? styles.rightLine : styles.line}>
          <Text style={styles.bold}>{row.label}: </Text>
          {row.value}
        </Text>
      ))}
    </>
  );
}

function Header({ model }: { model: TPrintModel }): ReactElement {
  const { issuer } = model;
  const modified = model.reference.find((row) => row.label === 'NCF Modificado');
  return (
    <View fixed>
      {model.environment === 'eCF' ? null : (
        <Text style={styles.notice}>
          Documento emitido en el ambiente {model.environment} de la DGII: sin validez fiscal
        </Text>
      )}
      <View style={styles.headerRow}>
        <View style={styles.issuer}>
          <Text style={styles.tradeName}>{issuer.tradeName ?? issuer.legalName}</Text>
          {issuer.tradeName === undefined ? null : <Text style={styles.legalName}>{issuer.legalName}</Text>}
          {issuer.branch === undefined ? null : <Text style={styles.line}>{issuer.branch}</Text>}
          <Text style={styles.line}>RNC {issuer.rnc}</Text>
          {issuer.address === undefined ? null : <Text style={styles.line}>Dirección: {issuer.address}</Text>}
          {issuer.phones.length === 0 ? null : (
            <Text style={styles.line}>Teléfono: {issuer.phones.join(' / ')}</Text>
          )}
          {issuer.email === undefined ? null : <Text style={styles.line}>Correo: {issuer.email}</Text>}
          {issuer.website === undefined ? null : <Text style={styles.line}>{issuer.website}</Text>}
          <Text style={styles.line}>
            <Text style={styles.bold}>Fecha Emisión: </Text>
            {model.issueDate}
          </Text>
        </View>
        <View style={styles.document}>
          <Text style={styles.typeName}>{model.typeName}</Text>
          <Text style={styles.rightLine}>
            <Text style={styles.bold}>e-NCF: </Text>
            {model.eNcf}
          </Text>
          {model.sequenceExpirationDate === undefined ? null : (
            <Text style={styles.rightLine}>
              <Text style={styles.bold}>Fecha Vencimiento: </Text>
              {model.sequenceExpirationDate}
            </Text>
          )}
          {modified === undefined ? null : <Labelled rows={[modified]} align="right" />}
        </View>
      </View>
      <View style={styles.rule} />
      {model.buyer.length === 0 && model.terms.length === 0 ? null : (
        <>
          <View style={styles.section}>
            <Labelled rows={model.buyer} align="left" />
            <Labelled rows={model.terms} align="left" />
          </View>
          <View style={styles.rule} />
        </>
      )}
    </View>
  );
}

function Reference({ model }: { model: TPrintModel }): ReactElement | null {
  if (model.reference.length === 0) return null;
  return (
    <View wrap={false}>
      <Text style={styles.sectionTitle}>Información de Referencia</Text>
      <Labelled rows={model.reference} align="left" />
      <View style={styles.rule} />
    </View>
  );
}

function ItemsTable({ model }: { model: TPrintModel }): ReactElement {
  return (
    <View>
      <View style={styles.row} fixed>
        <Text style={[styles.headCell, styles.firstCell, { width: COLUMNS.quantity }]}>Cantidad</Text>
        <Text style={[styles.headCell, { width: COLUMNS.description }]}>Descripción</Text>
        <Text style={[styles.headCell, { width: COLUMNS.unitPrice }]}>Precio</Text>
        <Text style={[styles.headCell, { width: COLUMNS.itbis }]}>ITBIS</Text>
        <Text style={[styles.headCell, { width: COLUMNS.amount }]}>Valor</Text>
      </View>
      {model.items.map((item, index) => (
        <View style={styles.row} key={index} wrap={false}>
          <Text style={[styles.cell, styles.firstCell, styles.center, { width: COLUMNS.quantity }]}>
            {item.quantity}
          </Text>
          <Text style={[styles.cell, { width: COLUMNS.description }]}>
            {item.description}
            {item.detail === undefined ? null : <Text style={styles.detail}>{`\n${item.detail}`}</Text>}
          </Text>
          <Text style={[styles.cell, styles.number, { width: COLUMNS.unitPrice }]}>{item.unitPrice}</Text>
          <Text style={[styles.cell, styles.number, { width: COLUMNS.itbis }]}>{item.itbis}</Text>
          <Text style={[styles.cell, styles.number, styles.amountCell, { width: COLUMNS.amount }]}>
            {item.amount}
          </Text>
        </View>
      ))}
    </View>
  );
}

function TotalRows({ rows }: { rows: ReadonlyArray<TPrintLabelled> }): ReactElement {
  return (
    <>
      {rows.map((row) => (
        <View style={styles.totalRow} key={row.label}>
          <Text
            style={row.isEmphasized === true ? [styles.totalLabel, styles.totalEmphasis] : styles.totalLabel}
          >
            {row.label}:
          </Text>
          <Text
            style={row.isEmphasized === true ? [styles.totalValue, styles.totalEmphasis] : styles.totalValue}
          >
            {row.value}
          </Text>
        </View>
      ))}
    </>
  );
}

function Totals({ model }: { model: TPrintModel }): ReactElement {
  return (
    <View style={styles.summary} wrap={false}>
      <View style={styles.totals}>
        <TotalRows rows={model.totals} />
        {model.otherCurrency.length === 0 ? null : (
          <>
            <Text style={styles.currencyTitle}>Otra Moneda</Text>
            <TotalRows rows={model.otherCurrency} />
          </>
        )}
      </View>
    </View>
  );
}

function Footer({ model, qr }: { model: TPrintModel; qr: TQrSymbol }): ReactElement {
  return (
    <View style={styles.footer} fixed>
      <View>
        <Svg style={styles.qr} viewBox={`0 0 ${qr.size} ${qr.size}`}>
          <Rect x={0} y={0} width={qr.size} height={qr.size} fill="#ffffff" />
          <Path d={qr.path} fill="#000000" />
        </Svg>
        <Text style={styles.stamp}>Código de Seguridad: {model.securityCode}</Text>
        <Text style={styles.stamp}>Fecha de Firma Digital: {model.signedAt}</Text>
      </View>
      <Text
        style={styles.pageNumber}
        render={({ pageNumber, totalPages }) =>
          totalPages > 1 ? `Página ${pageNumber} de ${totalPages}` : ''
        }
      />
    </View>
  );
}

/**
 * The whole document: one letter-size page flow that react-pdf breaks into pages. A plain function
 * returning the `<Document>` element (no hooks), so the renderer receives a `Document` root.
 */
export function printedDocument(model: TPrintModel, qr: TQrSymbol): ReactElement<DocumentProps> {
  return (
    <Document
      title={`${model.typeName} ${model.eNcf}`}
      author={model.issuer.legalName}
      creator="e-CF"
      producer="e-CF"
    >
      <Page size="LETTER" style={styles.page}>
        <Header model={model} />
        <Reference model={model} />
        <ItemsTable model={model} />
        <Totals model={model} />
        <Footer model={model} qr={qr} />
      </Page>
    </Document>
  );
}
