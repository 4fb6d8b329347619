/**
 * The printed representation laid out after the tax authority's illustrative models, drawn directly
 * with pdfkit: issuer at the top left, type name and e-NCF at the top right, buyer under a rule, the
 * items table, totals on the right, and the QR with the security code and signature date at the
 * bottom left of every page. The header and the table header repeat on each page, a row is never
 * split, the totals stay in one piece on the last page, and "Página X de Y" appears once the
 * document needs more than one page.
 *
 * Why not a layout engine: the form is fixed (one column of blocks and one table), so its geometry
 * is a few measured strings. The flexbox engine this replaced (@react-pdf/renderer: yoga, style
 * resolution, and a second layout of every page for the page numbers) was three quarters of a
 * PDF's CPU: 44 ms for 10 lines and 710 ms for 200 (packages/printing/README.md, "Cost").
 */
import PDFDocument from 'pdfkit';
import type { TPrintItem, TPrintLabelled, TPrintModel } from './print-model.ts';
import type { TQrSymbol } from './qr-image.ts';

const CM = 72 / 2.54;
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const ACCENT = '#1f4e79';
const RULE = '#5b9bd5';
const BORDER = '#888888';
const INK = '#111111';
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const BASE_SIZE = 8.5;
/** 80 pt is 28 mm: above the 22 mm minimum of the tax authority for the QR. */
const QR_SIZE = 80;
const LEFT = 1.5 * CM;
const RIGHT = PAGE_WIDTH - 1.5 * CM;
const WIDTH = RIGHT - LEFT;
const TOP = 0.9 * CM;
const FOOTER_BOTTOM = 0.8 * CM;
const FOOTER_HEIGHT = QR_SIZE + 26;
const FOOTER_TOP = PAGE_HEIGHT - FOOTER_BOTTOM - FOOTER_HEIGHT;
/** Where the flow of a page ends: above the footer. */
const CONTENT_BOTTOM = FOOTER_TOP - 12;

/** The items table: column widths as fractions of the text width. */
const COLUMNS = [
  { title: 'Cantidad', share: 0.09, align: 'center' },
  { title: 'Descripción', share: 0.43, align: 'left' },
  { title: 'Precio', share: 0.16, align: 'right' },
  { title: 'ITBIS', share: 0.14, align: 'right' },
  { title: 'Valor', share: 0.18, align: 'right' },
] as const;
const CELL_PADDING_X = 3;
const CELL_PADDING_Y = 2.5;
const HEAD_PADDING_Y = 3;
const DETAIL_SIZE = 7;

type TDocument = InstanceType<typeof PDFDocument>;

/** Writes the PDF of a print model; the bytes once the document is complete. */
export function layoutPrintedPdf(model: TPrintModel, qr: TQrSymbol): Promise<Buffer> {
  const document = new PDFDocument({
    size: 'LETTER',
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    autoFirstPage: false,
    bufferPages: true,
    info: {
      Title: `${model.typeName} ${model.eNcf}`,
      Author: model.issuer.legalName,
      Creator: 'e-CF',
      Producer: 'e-CF',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  new Layout(document, model).draw();
  const range = document.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    document.switchToPage(range.start + index);
    drawFooter(document, model, qr, index + 1, range.count);
  }
  document.end();
  return done;
}

/** The flow of one document: where the next block goes, and a new page when it does not fit. */
class Layout {
  private y = TOP;
  private readonly columns: TColumn[];

  constructor(
    private readonly document: TDocument,
    private readonly model: TPrintModel,
  ) {
    let x = LEFT;
    this.columns = COLUMNS.map((column) => {
      const placed = { x, width: WIDTH * column.share, title: column.title, align: column.align };
      x += placed.width;
      return placed;
    });
  }

  draw(): void {
    this.newPage();
    this.reference();
    this.tableHeader();
    for (const item of this.model.items) this.itemRow(item);
    this.totals();
  }

  private newPage(): void {
    this.document.addPage({ size: 'LETTER', margins: { top: 0, bottom: 0, left: 0, right: 0 } });
    this.y = TOP;
    this.header();
  }

  /** Environment notice, issuer and document blocks, buyer and terms: repeated on every page. */
  private header(): void {
    const { document, model } = this;
    if (model.environment !== 'eCF') {
      this.y = text(
        document,
        `Documento emitido en el ambiente ${model.environment} de la DGII: sin validez fiscal`,
        {
          x: LEFT,
          y: this.y,
          width: WIDTH,
          font: BOLD,
          color: '#b00020',
          align: 'center',
        },
      );
      this.y += 4;
    }
    const issuerWidth = WIDTH * 0.56;
    const { issuer } = model;
    let left = this.y;
    const line = (value: string | undefined, options: Partial<TTextOptions> = {}, after = 1.5) => {
      if (value === undefined) return;
      left = text(document, value, { x: LEFT, y: left, width: issuerWidth, ...options }) + after;
    };
    line(issuer.tradeName ?? issuer.legalName, { font: BOLD, size: 13, color: ACCENT }, 2);
    if (issuer.tradeName !== undefined) line(issuer.legalName, { size: 10 }, 1);
    line(issuer.branch);
    line(`RNC ${issuer.rnc}`);
    line(issuer.address === undefined ? undefined : `Dirección: ${issuer.address}`);
    line(issuer.phones.length === 0 ? undefined : `Teléfono: ${issuer.phones.join(' / ')}`);
    line(issuer.email === undefined ? undefined : `Correo: ${issuer.email}`);
    line(issuer.website);
    left =
      labelled(document, { label: 'Fecha Emisión', value: model.issueDate }, LEFT, left, issuerWidth) + 1.5;

    let right = this.y;
    const columnLeft = LEFT + issuerWidth;
    const columnWidth = WIDTH - issuerWidth;
    right =
      text(document, model.typeName, {
        x: columnLeft,
        y: right,
        width: columnWidth,
        font: BOLD,
        size: 12,
        color: ACCENT,
        align: 'right',
      }) + 3;
    right = rightLabelled(document, { label: 'e-NCF', value: model.eNcf }, RIGHT, right) + 1.5;
    if (model.sequenceExpirationDate !== undefined)
      right =
        rightLabelled(
          document,
          { label: 'Fecha Vencimiento', value: model.sequenceExpirationDate },
          RIGHT,
          right,
        ) + 1.5;
    const modified = model.reference.find((row) => row.label === 'NCF Modificado');
    if (modified !== undefined) right = rightLabelled(document, modified, RIGHT, right) + 1.5;

    this.y = Math.max(left, right);
    this.rule();
    if (model.buyer.length > 0 || model.terms.length > 0) {
      for (const row of [...model.buyer, ...model.terms])
        this.y = labelled(document, row, LEFT, this.y, WIDTH) + 1.5;
      this.y += 1;
      this.rule();
    }
  }

  /** A rule across the text width, 7 pt above and below. */
  private rule(): void {
    this.y += 7;
    this.document
      .save()
      .moveTo(LEFT, this.y)
      .lineTo(RIGHT, this.y)
      .lineWidth(1)
      .strokeColor(RULE)
      .stroke()
      .restore();
    this.y += 8;
  }

  /** `InformacionReferencia`: once, under the first page's header. */
  private reference(): void {
    const { document, model } = this;
    if (model.reference.length === 0) return;
    this.y =
      text(document, 'Información de Referencia', {
        x: LEFT,
        y: this.y,
        width: WIDTH,
        font: BOLD,
        color: ACCENT,
      }) + 2;
    for (const row of model.reference) this.y = labelled(document, row, LEFT, this.y, WIDTH) + 1.5;
    this.rule();
  }

  private tableHeader(): void {
    const { document } = this;
    const height = lineHeight(document, BOLD, BASE_SIZE) + 2 * HEAD_PADDING_Y;
    document.save().rect(LEFT, this.y, WIDTH, height).fill('#dcdcdc').restore();
    for (const column of this.columns)
      text(document, column.title, {
        x: column.x + CELL_PADDING_X,
        y: this.y + HEAD_PADDING_Y,
        width: column.width - 2 * CELL_PADDING_X,
        font: BOLD,
        align: 'center',
      });
    this.grid(this.y, height, true);
    this.y += height;
  }

  /** Cell borders of a row: 0.5 pt, every column edge and the bottom (and the top for the header). */
  private grid(top: number, height: number, withTop: boolean): void {
    const { document } = this;
    document.save().lineWidth(0.5).strokeColor(BORDER);
    if (withTop) document.moveTo(LEFT, top).lineTo(RIGHT, top);
    document.moveTo(LEFT, top + height).lineTo(RIGHT, top + height);
    document.moveTo(LEFT, top).lineTo(LEFT, top + height);
    for (const column of this.columns)
      document.moveTo(column.x + column.width, top).lineTo(column.x + column.width, top + height);
    document.stroke().restore();
  }

  private itemRow(item: TPrintItem): void {
    const { document } = this;
    const [quantity, description, unitPrice, itbis, amount] = this.columns as [
      TColumn,
      TColumn,
      TColumn,
      TColumn,
      TColumn,
    ];
    const inner = (column: TColumn) => column.width - 2 * CELL_PADDING_X;
    const descriptionHeight =
      heightOf(document, item.description, REGULAR, BASE_SIZE, inner(description)) +
      (item.detail === undefined
        ? 0
        : heightOf(document, item.detail, REGULAR, DETAIL_SIZE, inner(description)));
    const cells: Array<[TColumn, string]> = [
      [quantity, item.quantity],
      [unitPrice, item.unitPrice],
      [itbis, item.itbis],
      [amount, item.amount],
    ];
    const contentHeight = Math.max(
      descriptionHeight,
      ...cells.map(([column, value]) => heightOf(document, value, REGULAR, BASE_SIZE, inner(column))),
    );
    const height = contentHeight + 2 * CELL_PADDING_Y;
    if (this.y + height > CONTENT_BOTTOM) {
      this.newPage();
      this.tableHeader();
    }
    const top = this.y;
    document.save().rect(amount.x, top, amount.width, height).fill('#f2f2f2').restore();
    for (const [column, value] of cells)
      text(document, value, {
        x: column.x + CELL_PADDING_X,
        y: top + CELL_PADDING_Y,
        width: inner(column),
        align: column.align,
      });
    const afterDescription = text(document, item.description, {
      x: description.x + CELL_PADDING_X,
      y: top + CELL_PADDING_Y,
      width: inner(description),
    });
    if (item.detail !== undefined)
      text(document, item.detail, {
        x: description.x + CELL_PADDING_X,
        y: afterDescription,
        width: inner(description),
        size: DETAIL_SIZE,
        color: '#444444',
      });
    this.grid(top, height, false);
    this.y = top + height;
  }

  /** Totals and other currency, right-aligned, in one piece: on a new page when they do not fit. */
  private totals(): void {
    const { document, model } = this;
    const blockWidth = WIDTH * 0.46;
    const blockLeft = RIGHT - blockWidth;
    const labelWidth = blockWidth * 0.62;
    const valueWidth = blockWidth - labelWidth;
    const rowHeight = (row: TPrintLabelled) =>
      lineHeight(document, BOLD, row.isEmphasized === true ? 9.5 : BASE_SIZE) + 2 + 1.5;
    const titleHeight = model.otherCurrency.length === 0 ? 0 : 6 + lineHeight(document, BOLD, BASE_SIZE) + 2;
    const height =
      8 +
      [...model.totals, ...model.otherCurrency].reduce((sum, row) => sum + rowHeight(row), 0) +
      titleHeight;
    if (this.y + height > CONTENT_BOTTOM) {
      this.newPage();
      this.tableHeader();
    }
    this.y += 8;
    const rows = (list: ReadonlyArray<TPrintLabelled>) => {
      for (const row of list) {
        const size = row.isEmphasized === true ? 9.5 : BASE_SIZE;
        const boxHeight = lineHeight(document, BOLD, size) + 2;
        const valueFont = row.isEmphasized === true ? BOLD : REGULAR;
        document
          .save()
          .lineWidth(0.5)
          .rect(blockLeft + labelWidth, this.y, valueWidth, boxHeight)
          .fillAndStroke('#f2f2f2', BORDER)
          .restore();
        text(document, `${row.label}:`, {
          x: blockLeft,
          y: this.y + 1,
          width: labelWidth - 4,
          font: BOLD,
          size,
          align: 'right',
        });
        text(document, row.value, {
          x: blockLeft + labelWidth + 3,
          y: this.y + 1,
          width: valueWidth - 6,
          font: valueFont,
          size,
          align: 'right',
        });
        this.y += boxHeight + 1.5;
      }
    };
    rows(model.totals);
    if (model.otherCurrency.length > 0) {
      this.y += 6;
      this.y =
        text(document, 'Otra Moneda', {
          x: blockLeft,
          y: this.y,
          width: blockWidth,
          font: BOLD,
          color: ACCENT,
          align: 'right',
        }) + 2;
      rows(model.otherCurrency);
    }
  }
}

// The standard PDF fonts (Helvetica: nothing embedded) carry the Windows-1252 characters: Latin-1
// and these. Any other character would come out as unrelated glyphs; it prints as its unaccented
// letter when it has one (NFD), else as "?". The XML, the API and the portal keep the text as sent.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function isWinAnsi(character: string): boolean {
  const code = character.charCodeAt(0);
  return (
    character.length === 1 &&
    ((code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      code === 0x0a ||
      WIN_ANSI_EXTRA.has(character))
  );
}

/** The text as the standard fonts can print it (see above); unchanged for Spanish text. */
export function printableText(value: string): string {
  if (/^[\n\u0020-\u007e\u00a0-\u00ff]*$/.test(value)) return value;
  let printable = '';
  for (const character of value) {
    if (isWinAnsi(character)) printable += character;
    else {
      const base = character.normalize('NFD').charAt(0);
      printable += base !== character && isWinAnsi(base) ? base : '?';
    }
  }
  return printable;
}

type TAlign = 'left' | 'center' | 'right';
type TColumn = { x: number; width: number; title: string; align: TAlign };
type TTextOptions = {
  x: number;
  y: number;
  width: number;
  font?: string;
  size?: number;
  color?: string;
  align?: TAlign;
};

/**
 * The font's line gap at the current size: a line is ascender to descender plus this gap (Helvetica:
 * 1.156 × the size); pdfkit puts all of it under the text, half goes above here, so a line's text
 * sits in the middle of its line.
 */
function halfGap(document: TDocument): number {
  return (document.currentLineHeight(true) - document.currentLineHeight(false)) / 2;
}

/** Draws text wrapped to a width; the y under it. */
function text(document: TDocument, value: string, options: TTextOptions): number {
  document
    .font(options.font ?? REGULAR)
    .fontSize(options.size ?? BASE_SIZE)
    .fillColor(options.color ?? INK);
  const shift = halfGap(document);
  document.text(printableText(value), options.x, options.y + shift, {
    width: options.width,
    align: options.align ?? 'left',
    lineGap: 0,
  });
  return document.y - shift;
}

/** The height of text wrapped to a width. */
function heightOf(document: TDocument, value: string, font: string, size: number, width: number): number {
  return document.font(font).fontSize(size).heightOfString(printableText(value), { width, lineGap: 0 });
}

/** The height of one line of text, its gap included. */
function lineHeight(document: TDocument, font: string, size: number): number {
  return document.font(font).fontSize(size).currentLineHeight(true);
}

/** `Label: value`, the label in bold, wrapped to a width from the left; the y under it. */
function labelled(document: TDocument, row: TPrintLabelled, x: number, y: number, width: number): number {
  document.fillColor(INK).font(BOLD).fontSize(BASE_SIZE);
  const shift = halfGap(document);
  document
    .text(`${row.label}: `, x, y + shift, { width, continued: true, lineGap: 0 })
    .font(REGULAR)
    .text(printableText(row.value), { lineGap: 0 });
  return document.y - shift;
}

/** `Label: value` on one line ending at `right`; the y under it. */
function rightLabelled(document: TDocument, row: TPrintLabelled, right: number, y: number): number {
  const label = `${row.label}: `;
  const labelWidth = document.font(BOLD).fontSize(BASE_SIZE).widthOfString(label);
  const value = printableText(row.value);
  const valueWidth = document.font(REGULAR).fontSize(BASE_SIZE).widthOfString(value);
  const start = right - labelWidth - valueWidth;
  const shift = halfGap(document);
  document
    .fillColor(INK)
    .font(BOLD)
    .text(label, start, y + shift, { lineBreak: false });
  document.font(REGULAR).text(value, start + labelWidth, y + shift, { lineBreak: false });
  return y + lineHeight(document, REGULAR, BASE_SIZE);
}

/** The footer of one page: the QR, the security code and signature date, and the page number. */
function drawFooter(
  document: TDocument,
  model: TPrintModel,
  qr: TQrSymbol,
  page: number,
  pages: number,
): void {
  const left = 2 * CM;
  const stampHeight = lineHeight(document, REGULAR, 8) + 1;
  const bottom = PAGE_HEIGHT - FOOTER_BOTTOM;
  const qrTop = bottom - 2 * stampHeight - QR_SIZE;
  document.save().rect(left, qrTop, QR_SIZE, QR_SIZE).fill('#ffffff').restore();
  document
    .save()
    .translate(left, qrTop)
    .scale(QR_SIZE / qr.size)
    .path(qr.path)
    .fill('#000000')
    .restore();
  let y = qrTop + QR_SIZE + 1;
  for (const stamp of [
    `Código de Seguridad: ${model.securityCode}`,
    `Fecha de Firma Digital: ${model.signedAt}`,
  ]) {
    document.fillColor(INK).font(REGULAR).fontSize(8).text(stamp, left, y, { lineBreak: false });
    y += stampHeight;
  }
  if (pages > 1) {
    const label = `Página ${page} de ${pages}`;
    const width = document.font(REGULAR).fontSize(8).widthOfString(label);
    document.fillColor('#444444').text(label, RIGHT - width, bottom - stampHeight, { lineBreak: false });
  }
}
