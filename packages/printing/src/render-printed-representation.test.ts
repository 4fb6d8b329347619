/**
 * End-to-end checks of the printed representation: documents are validated, signed, read back from
 * the signed XML, rendered, and the PDF is inspected with poppler (pdftotext, pdfinfo, pdftoppm) and
 * the QR decoded from the rendered page with jsQR.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// jsqr is CommonJS whose typings declare an ES default export: its namespace's `default` is the function.
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { printableText } from './pdf-layout.ts';
import { renderPrintedRepresentation } from './render-printed-representation.ts';
import { PRINT_EXAMPLES, creditInvoiceBody, signedFixture } from '../test/fixtures.ts';
import type { TSignedFixture } from '../test/fixtures.ts';

let directory: string;

before(() => {
  directory = mkdtempSync(join(tmpdir(), 'ecf-printing-'));
});

after(() => rmSync(directory, { recursive: true, force: true }));

type TPrinted = { file: string; text: string; pages: number; fixture: TSignedFixture };

async function print(name: string, fixture: TSignedFixture): Promise<TPrinted> {
  const pdf = await renderPrintedRepresentation(fixture.input);
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  const file = join(directory, `${name}.pdf`);
  writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
  return { file, text, pages, fixture };
}

async function printExample(type: string, environment: 'eCF' | 'TesteCF' = 'eCF'): Promise<TPrinted> {
  const body = PRINT_EXAMPLES[type];
  assert.ok(body !== undefined);
  return print(`E${type}-${environment}`, await signedFixture(body, environment));
}

/** Renders page 1 at 200 dpi and decodes the QR found on it. */
function decodeQrOfFirstPage(file: string): string | undefined {
  const prefix = `${file}-page`;
  execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
  const png = PNG.sync.read(readFileSync(`${prefix}.png`));
  return jsQRModule.default(
    new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength),
    png.width,
    png.height,
  )?.data;
}

/** Text of one page (1-based). */
function pageText(file: string, page: number): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'], {
    encoding: 'utf8',
  });
}

function assertCommon(printed: TPrinted, expected: { typeName: string; eNcf: string; total: string }): void {
  const { text, fixture } = printed;
  assert.ok(text.includes(expected.typeName), `type name ${expected.typeName}`);
  assert.ok(text.includes(`e-NCF: ${expected.eNcf}`), 'eNCF');
  assert.ok(text.includes(`Código de Seguridad: ${fixture.input.securityCode}`), 'security code');
  assert.ok(text.includes(`Fecha de Firma Digital: ${fixture.input.signedAt}`), 'signature date');
  assert.match(text, new RegExp(`Total:\\s+${expected.total.replace(/[.,]/g, '\\$&')}\\b`), 'total');
  assert.ok(text.includes('Distribuidora Caribe Digital SRL') && text.includes('RNC 131880738'), 'issuer');
  assert.ok(
    text.includes('Caribe Digital') && text.includes('809-555-0101 / 809-555-0102'),
    'trade name and phones',
  );
  assert.equal(decodeQrOfFirstPage(printed.file), fixture.input.qrUrl, 'the QR is exactly the qrUrl');
}

describe('renderPrintedRepresentation', () => {
  test('E31: issuer, buyer, sequence expiration, items with line ITBIS, totals by rate, QR', async () => {
    const printed = await printExample('31');
    assertCommon(printed, {
      typeName: 'Factura de Crédito Fiscal Electrónica',
      eNcf: 'E310000000101',
      total: '1,938.27',
    });
    const { text } = printed;
    assert.ok(text.includes('Razón Social Cliente: Ferretería Los Pinos SRL'));
    assert.ok(text.includes('RNC Cliente: 101672919'));
    assert.ok(text.includes('Fecha Vencimiento: 31-12-2027'));
    assert.ok(text.includes('Fecha Emisión: 21-11-2026'));
    assert.match(text, /Artículo de ferretería número 1\s+137\.13\s+49\.37\s+274\.26/);
    assert.match(text, /Subtotal Gravado ITBIS 18%:\s+1,642\.60/);
    assert.match(text, /Total ITBIS:\s+295\.67/);
    assert.ok(!text.includes('Página'), 'a one-page document carries no page numbers');
    assert.ok(!text.includes('sin validez fiscal'), 'production prints no test notice');
    assert.equal(printed.pages, 1);
    assert.ok(printed.fixture.input.qrUrl.startsWith('https://ecf.dgii.gov.do/ecf/ConsultaTimbre?'));
  });

  test('E32 anonymous below RD$250,000: CONSUMIDOR FINAL, FC QR, no sequence expiration, test notice', async () => {
    const printed = await printExample('32', 'TesteCF');
    assertCommon(printed, {
      typeName: 'Factura de Consumo Electrónica',
      eNcf: 'E320000000201',
      total: '1,006.00',
    });
    const { text } = printed;
    assert.ok(text.includes('Razón Social Cliente: CONSUMIDOR FINAL'));
    assert.ok(!text.includes('RNC Cliente'));
    assert.ok(!text.includes('Vencimiento'), 'E32 never shows the sequence expiration date');
    assert.ok(!text.includes('31-12-2027'));
    assert.ok(text.includes('sin validez fiscal'));
    assert.ok(printed.fixture.input.qrUrl.startsWith('https://fc.dgii.gov.do/testecf/ConsultaTimbreFC?'));
    // Prices include ITBIS (IndicadorMontoGravado 1): 790.00 - 790.00 / 1.18 = 120.51.
    assert.match(text, /Café molido 1 lb\s+395\.00\s+120\.51\s+790\.00/);
    assert.match(text, /Leche entera 1 L\s+72\.00\s+Exento\s+216\.00/);
  });

  test('E34 credit note: reference block, no sequence expiration', async () => {
    const printed = await printExample('34');
    assertCommon(printed, {
      typeName: 'Nota de Crédito Electrónica',
      eNcf: 'E340000000401',
      total: '1,062.00',
    });
    const { text } = printed;
    assert.ok(text.includes('NCF Modificado: E310000000090'));
    assert.ok(text.includes('Fecha NCF Modificado: 10-11-2026'));
    assert.ok(text.includes('Código de Modificación: 3 - Corrige montos del NCF modificado'));
    assert.ok(text.includes('Razón de Modificación: Devolución de mercancía'));
    assert.ok(text.includes('RNC Cliente: 101672919'));
    assert.ok(!text.includes('Vencimiento'), 'E34 never shows the sequence expiration date');
  });

  test('E43 minor expenses: no buyer block, QR without RncComprador', async () => {
    const printed = await printExample('43');
    assertCommon(printed, { typeName: 'Gastos Menores Electrónico', eNcf: 'E430000000601', total: '350.00' });
    assert.ok(!printed.text.includes('Cliente'));
    assert.ok(printed.text.includes('Fecha Vencimiento: 31-12-2027'));
    assert.ok(!printed.fixture.input.qrUrl.includes('RncComprador'));
  });

  test('E47 payments abroad: foreign id, ISR withheld, QR without RncComprador', async () => {
    const printed = await printExample('47');
    assertCommon(printed, {
      typeName: 'Pagos al Exterior Electrónica',
      eNcf: 'E470000001001',
      total: '120,000.00',
    });
    const { text } = printed;
    assert.ok(text.includes('Razón Social Cliente: Consultores Ibéricos SL'));
    assert.ok(text.includes('Identificación Extranjero: ES-B12345678'));
    assert.match(text, /ISR Retenido:\s+32,400\.00/);
    assert.ok(!printed.fixture.input.qrUrl.includes('RncComprador'));
  });

  test('E41 purchases: withholdings; E46 exports: other currency', async () => {
    const purchase = await printExample('41');
    assertCommon(purchase, { typeName: 'Compras Electrónico', eNcf: 'E410000000501', total: '12,508.00' });
    assert.match(purchase.text, /ITBIS Retenido:\s+1,854\.00/);
    assert.match(purchase.text, /ISR Retenido:\s+1,000\.00/);

    const exported = await printExample('46');
    assertCommon(exported, {
      typeName: 'Exportaciones Electrónica',
      eNcf: 'E460000000901',
      total: '632,625.00',
    });
    assert.ok(exported.text.includes('Otra Moneda'));
    assert.match(exported.text, /Moneda:\s+USD/);
    assert.match(exported.text, /Tasa de Cambio:\s+60\.25/);
    assert.match(exported.text, /Total:\s+10,500\.00/);
    assert.match(exported.text, /Subtotal Gravado ITBIS 0%:\s+632,625\.00/);
  });

  test('a 200-line E31 paginates: every line once, header and QR on every page, totals on the last', async () => {
    const printed = await print('E31-200', await signedFixture(creditInvoiceBody(200)));
    const { text, pages, file } = printed;
    assert.ok(pages >= 3, `expected several pages, got ${pages}`);
    const total = /<MontoTotal>([\d.]+)<\/MontoTotal>/.exec(printed.fixture.xml)?.[1];
    assert.ok(total !== undefined);
    assertCommon(printed, {
      typeName: 'Factura de Crédito Fiscal Electrónica',
      eNcf: 'E310000000101',
      total: total.replace(/\B(?=(\d{3})+(?!\d))/g, ','),
    });
    for (let page = 1; page <= pages; page += 1) {
      const onPage = pageText(file, page);
      assert.ok(onPage.includes(`Página ${page} de ${pages}`), `page number on page ${page}`);
      assert.match(onPage, /Cantidad\s+Descripción\s+Precio\s+ITBIS\s+Valor/, `items header on page ${page}`);
      assert.ok(onPage.includes('e-NCF: E310000000101'), `eNCF on page ${page}`);
      assert.ok(
        onPage.includes(`Código de Seguridad: ${printed.fixture.input.securityCode}`),
        `security code on page ${page}`,
      );
      assert.equal(/\bTotal:/.test(onPage), page === pages, `totals only on the last page (page ${page})`);
    }
    for (let index = 1; index <= 200; index += 1) {
      const name =
        index % 7 === 0 ? `Libro técnico volumen ${index}` : `Artículo de ferretería número ${index}`;
      const occurrences = text.split(new RegExp(`${name}(?!\\d)`)).length - 1;
      assert.equal(occurrences, 1, `line ${index} printed once`);
    }
  });

  test('prints the values of the tree it is given (the stored XML), not recomputed ones', async () => {
    const fixture = await signedFixture(PRINT_EXAMPLES['31'] ?? {});
    const ecf = fixture.input.document.ECF as Record<string, unknown>;
    const header = ecf['Encabezado'] as Record<string, Record<string, unknown>>;
    const totals = header['Totales'];
    assert.ok(totals !== undefined);
    totals['MontoTotal'] = '1234567.891';
    const printed = await print('E31-altered', fixture);
    assert.match(printed.text, /Total:\s+1,234,567\.891/);
  });

  test('text outside the standard fonts prints as its plain letter or "?", never as unrelated glyphs', async () => {
    assert.equal(
      printableText('Ferretería Ñandú, S.R.L. — “Piantini” €'),
      'Ferretería Ñandú, S.R.L. — “Piantini” €',
    );
    assert.equal(printableText('Łódź Café ☕ Ă'), '?ódz Café ? A');
    const fixture = await signedFixture(PRINT_EXAMPLES['31'] ?? {});
    const ecf = fixture.input.document.ECF as Record<string, unknown>;
    const header = ecf['Encabezado'] as Record<string, Record<string, unknown>>;
    const buyer = header['Comprador'];
    assert.ok(buyer !== undefined);
    buyer['RazonSocialComprador'] = 'Tienda 東京 Ăvila';
    const printed = await print('E31-characters', fixture);
    assert.match(printed.text, /Razón Social Cliente: Tienda \?\? Avila/);
  });
});
