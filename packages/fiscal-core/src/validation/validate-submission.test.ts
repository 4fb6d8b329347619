import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ECF_TYPES } from '../model/ecf-tree.ts';
import { computeSubmissionFingerprint } from '../fingerprint/submission-fingerprint.ts';
import {
  example,
  getPath,
  issuesOf,
  setPath,
  SIMPLIFIED_EXAMPLES,
  taxauthExample,
  TEST_ACCOUNT,
  validate,
} from '../../test/validation-support.ts';

describe('validateSubmission: simplified contract, one realistic document per type', () => {
  for (const type of ECF_TYPES) {
    test(`E${type} validates and fills every amount`, async () => {
      const body = SIMPLIFIED_EXAMPLES[type];
      const result = await validate(body);
      assert.ok(result.success, JSON.stringify(issuesOf(result)));
      assert.equal(result.data.type, type);
      assert.equal(result.data.format, 'simplified');
      assert.equal(result.data.encf, body?.['encf']);
      assert.equal(result.data.issueDate, '2026-11-21');
      assert.deepEqual(result.data.warnings, []);
      const ecf = result.data.document.ECF;
      assert.equal(getPath(ecf, 'Encabezado.IdDoc.TipoeCF'), type);
      assert.equal(getPath(ecf, 'Encabezado.Totales.MontoTotal'), result.data.totalAmount);
      assert.match(result.data.totalAmount, /^\d+\.\d{2}$/);
      assert.equal(
        result.data.fingerprint,
        (computeSubmissionFingerprint(JSON.stringify(body)) as { fingerprint: string }).fingerprint,
      );
    });
  }

  test('E31 amounts: 10 x 450 + 1 x 1500 at 18 %, 2 x 825.50 exempt', async () => {
    const result = await validate(example('31'));
    assert.ok(result.success);
    const totals = getPath(result.data.document.ECF, 'Encabezado.Totales');
    assert.deepEqual(totals, {
      MontoGravadoTotal: '6000.00',
      MontoGravadoI1: '6000.00',
      MontoExento: '1651.00',
      ITBIS1: '18',
      TotalITBIS: '1080.00',
      TotalITBIS1: '1080.00',
      MontoTotal: '8731.00',
    });
    assert.equal(result.data.buyerRnc, '101672919');
    assert.equal(result.data.buyerEmail, 'compras@lospinos.com.do');
    assert.deepEqual(getPath(result.data.document.ECF, 'Encabezado.IdDoc.TablaFormasPago'), {
      FormaDePago: [{ FormaPago: '4', MontoPago: '8731.00' }],
    });
  });

  test('E32 with prices including ITBIS: base = 790 / 1.18', async () => {
    const result = await validate(example('32'));
    assert.ok(result.success);
    const totals = getPath(result.data.document.ECF, 'Encabezado.Totales') as Record<string, string>;
    assert.equal(totals['MontoGravadoI1'], '669.49');
    assert.equal(totals['TotalITBIS1'], '120.51');
    assert.equal(totals['MontoExento'], '216.00');
    assert.equal(totals['MontoTotal'], '1006.00');
    assert.equal(getPath(result.data.document.ECF, 'Encabezado.IdDoc.IndicadorMontoGravado'), '1');
    assert.equal(getPath(result.data.document.ECF, 'Encabezado.IdDoc.FechaVencimientoSecuencia'), undefined);
  });

  test('E41 carries per-line withholding and its totals', async () => {
    const result = await validate(example('41'));
    assert.ok(result.success);
    const ecf = result.data.document.ECF;
    assert.deepEqual(getPath(ecf, 'DetallesItems.Item[0].Retencion'), {
      IndicadorAgenteRetencionoPercepcion: '1',
      MontoITBISRetenido: '1800.00',
      MontoISRRetenido: '1000.00',
    });
    assert.equal(getPath(ecf, 'Encabezado.Totales.TotalITBISRetenido'), '1854.00');
    assert.equal(getPath(ecf, 'Encabezado.Totales.TotalISRRetencion'), '1000.00');
  });

  test('E46 in another currency: pesos in Totales, dollars in OtraMoneda', async () => {
    const result = await validate(example('46'));
    assert.ok(result.success);
    const ecf = result.data.document.ECF;
    assert.equal(getPath(ecf, 'Encabezado.Totales.MontoGravadoI3'), '632625.00');
    assert.equal(getPath(ecf, 'Encabezado.Totales.TotalITBIS3'), '0.00');
    assert.equal(getPath(ecf, 'Encabezado.Totales.MontoTotal'), '632625.00');
    assert.deepEqual(getPath(ecf, 'Encabezado.OtraMoneda'), {
      TipoMoneda: 'USD',
      TipoCambio: '60.25',
      MontoGravadoTotalOtraMoneda: '10500.00',
      MontoGravado3OtraMoneda: '10500.00',
      TotalITBISOtraMoneda: '0.00',
      TotalITBIS3OtraMoneda: '0.00',
      MontoTotalOtraMoneda: '10500.00',
    });
    assert.deepEqual(getPath(ecf, 'DetallesItems.Item[0].OtraMonedaDetalle'), {
      PrecioOtraMoneda: '210.00',
      MontoItemOtraMoneda: '10500.00',
    });
    assert.equal(getPath(ecf, 'DetallesItems.Item[0].PrecioUnitarioItem'), '12652.50');
  });
});

describe('validateSubmission: tax-authority JSON', () => {
  for (const type of ECF_TYPES) {
    test(`E${type}: the tree built from the simplified example is accepted as is, without warnings`, async () => {
      const body = await taxauthExample(type);
      const result = await validate(body);
      assert.ok(result.success, JSON.stringify(issuesOf(result)));
      assert.equal(result.data.format, 'taxauth_json');
      assert.deepEqual(result.data.warnings, []);
      assert.deepEqual(result.data.document, body);
    });
  }

  test('decimals as JSON numbers keep their text; a single item may be an object', async () => {
    const body = await taxauthExample('31');
    const text = JSON.stringify(body)
      .replace('"MontoTotal":"8731.00"', '"MontoTotal":8731.00')
      .replace('"PrecioUnitarioItem":"450.00"', '"PrecioUnitarioItem":450.0');
    const result = await validate(text);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    assert.equal(result.data.totalAmount, '8731.00');
    assert.equal(getPath(result.data.document.ECF, 'DetallesItems.Item[0].PrecioUnitarioItem'), '450.0');

    const single = await taxauthExample('43');
    setPath(single, 'ECF.DetallesItems.Item', getPath(single, 'ECF.DetallesItems.Item[0]'));
    setPath(single, 'ECF.Encabezado.Totales.MontoExento', '200.00');
    setPath(single, 'ECF.Encabezado.Totales.MontoTotal', '200.00');
    setPath(single, 'ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor', '809-555-0101');
    const singleResult = await validate(single);
    assert.ok(singleResult.success, JSON.stringify(issuesOf(singleResult)));
    assert.equal((getPath(singleResult.data.document.ECF, 'DetallesItems.Item') as unknown[]).length, 1);
    assert.deepEqual(
      getPath(singleResult.data.document.ECF, 'Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor'),
      ['809-555-0101'],
    );
  });

  test('errors on a single item object use the path the client wrote (no index)', async () => {
    const body = await taxauthExample('43');
    setPath(body, 'ECF.DetallesItems.Item', getPath(body, 'ECF.DetallesItems.Item[0]'));
    setPath(body, 'ECF.DetallesItems.Item.MontoItem', '1,000.00');
    const result = await validate(body);
    assert.ok(!result.success);
    assert.ok(
      issuesOf(result).errors.includes('DECIMAL_FORMAT_INVALID@ECF.DetallesItems.Item.MontoItem'),
      JSON.stringify(issuesOf(result)),
    );
  });

  test('a sent Paginacion that is consistent is accepted and not emitted', async () => {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.Encabezado.IdDoc.TotalPaginas', '1');
    setPath(body, 'ECF.Paginacion', {
      Pagina: [{ PaginaNo: '1', NoLineaDesde: '1', NoLineaHasta: '3', MontoSubtotalPagina: '8731.00' }],
    });
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    assert.equal(getPath(result.data.document.ECF, 'Paginacion'), undefined);
  });
});

describe('validateSubmission: format and JSON errors', () => {
  test('malformed JSON is JSON_MALFORMED with its position, never a throw', async () => {
    const result = await validate('{"type": "E31",\n "encf": }');
    assert.ok(!result.success);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0]?.code, 'JSON_MALFORMED');
    assert.equal(result.errors[0]?.path, '');
    assert.deepEqual(result.errors[0]?.details, { code: 'JSON_MALFORMED', offset: 25, line: 2, column: 10 });
  });

  test('duplicate keys are JSON_DUPLICATE_KEY on the member', async () => {
    const result = await validate('{"type":"E31","type":"E32"}');
    assert.deepEqual(issuesOf(result).errors, ['JSON_DUPLICATE_KEY@type']);
  });

  test('both formats at once: SUBMISSION_FORMAT_AMBIGUOUS', async () => {
    const body = { ...(await taxauthExample('31')), type: 'E31', encf: 'E310000000101' };
    assert.deepEqual(issuesOf(await validate(body)).errors, ['SUBMISSION_FORMAT_AMBIGUOUS@']);
  });

  test('neither format: SUBMISSION_FORMAT_UNRECOGNIZED', async () => {
    assert.deepEqual(issuesOf(await validate({ factura: {} })).errors, ['SUBMISSION_FORMAT_UNRECOGNIZED@']);
    assert.deepEqual(issuesOf(await validate([1, 2])).errors, ['SUBMISSION_FORMAT_UNRECOGNIZED@']);
  });

  test('members beside ECF are UNKNOWN_FIELD', async () => {
    const body = { ...(await taxauthExample('31')), comentario: 'x' };
    assert.deepEqual(issuesOf(await validate(body)).errors, ['UNKNOWN_FIELD@comentario']);
  });

  test('collects every error instead of stopping at the first', async () => {
    const body = setPath(
      setPath(setPath(example('31'), 'lines[0].unitPrice', '4,50'), 'issuer.phone', '8095550101'),
      'sequenceExpirationDate',
      '31-02-2027',
    );
    const { errors } = issuesOf(await validate(body));
    assert.deepEqual(errors.sort(), [
      'DECIMAL_FORMAT_INVALID@lines[0].unitPrice',
      'ISSUER_PHONE_INVALID@issuer.phone',
      'SEQUENCE_EXPIRATION_DATE_INVALID@sequenceExpirationDate',
    ]);
  });
});

describe('validateSubmission: placeholders', () => {
  test('known placeholders are filled from the account and the Dominican date', async () => {
    const body = setPath(
      setPath(setPath(example('31'), 'issuer.rnc', '{{RNC}}'), 'issuer.legalName', '{{RAZON_SOCIAL}}'),
      'issuer.tradeName',
      '{{NOMBRE_COMERCIAL}}',
    );
    setPath(body, 'issueDate', '{{FECHA_EMISION}}');
    setPath(body, 'dueDate', '{{FECHA_LIMITE_PAGO}}');
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const issuer = getPath(result.data.document.ECF, 'Encabezado.Emisor') as Record<string, unknown>;
    assert.equal(issuer['RNCEmisor'], '131880738');
    assert.equal(issuer['RazonSocialEmisor'], 'Distribuidora Caribe Digital SRL');
    assert.equal(issuer['NombreComercial'], 'Caribe Digital');
    assert.equal(issuer['FechaEmision'], '21-11-2026');
    assert.equal(getPath(result.data.document.ECF, 'Encabezado.IdDoc.FechaLimitePago'), '21-12-2026');
    // The fingerprint is of the body as sent, placeholders included.
    assert.equal(
      result.data.fingerprint,
      (computeSubmissionFingerprint(JSON.stringify(body)) as { fingerprint: string }).fingerprint,
    );
  });

  test('the Dominican date is used, not UTC (02:00 UTC is still the previous day in Santo Domingo)', async () => {
    const body = setPath(example('43'), 'issueDate', '{{FECHA_EMISION}}');
    const result = await validate(body, { now: new Date('2026-11-22T02:00:00Z') });
    assert.ok(result.success);
    assert.equal(result.data.issueDate, '2026-11-21');
  });

  test('any other placeholder is UNRESOLVED_PLACEHOLDER on its path', async () => {
    const body = setPath(example('34'), 'reference.encf', '{{NCF_MODIFICADO}}');
    assert.ok(issuesOf(await validate(body)).errors.includes('UNRESOLVED_PLACEHOLDER@reference.encf'));
    const taxauth = await taxauthExample('31');
    setPath(taxauth, 'ECF.DetallesItems.Item[1].NombreItem', 'Flete {{RUTA}}');
    assert.deepEqual(issuesOf(await validate(taxauth)).errors, [
      'UNRESOLVED_PLACEHOLDER@ECF.DetallesItems.Item[1].NombreItem',
    ]);
  });

  test('a placeholder spelled with JSON escapes is still a placeholder', async () => {
    const text = JSON.stringify(setPath(example('31'), 'issuer.legalName', 'RAZON')).replace(
      '"RAZON"',
      '"\\u007b{RAZON_SOCIAL}\\u007D"',
    );
    assert.ok(text.includes('\\u007b{RAZON_SOCIAL}'));
    const result = await validate(text);
    assert.ok(result.success, JSON.stringify(!result.success && result.errors));
    assert.ok(
      JSON.stringify(result.data.document).includes(`"RazonSocialEmisor":"${TEST_ACCOUNT.legalName}"`),
    );
  });
});

describe('validateSubmission: size', () => {
  test('1,000 lines validate quickly in both formats', async () => {
    const body = example('31');
    body['lines'] = Array.from({ length: 1000 }, (_, index) => ({
      name: `Artículo ${index + 1}`,
      quantity: (index % 7) + 1,
      unitPrice: `${100 + index}.25`,
      itbisRate: [18, 16, 0, 'exempt'][index % 4],
      itemKind: 'good',
    }));
    const started = performance.now();
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)).slice(0, 500));
    const replay = await validate({ ECF: result.data.document.ECF });
    assert.ok(replay.success);
    assert.deepEqual(replay.data.warnings, []);
    assert.ok(performance.now() - started < 3000, `took ${performance.now() - started} ms`);
  });
});

describe('validateSubmission: tax-authority JSON shapes', () => {
  test('a repeated element must hold objects (or text for phones)', async () => {
    const body = setPath(await taxauthExample('31'), 'ECF.DetallesItems.Item[3]', 'línea suelta');
    assert.ok(issuesOf(await validate(body)).errors.includes('FIELD_TYPE_INVALID@ECF.DetallesItems.Item[3]'));
    const phones = setPath(
      await taxauthExample('31'),
      'ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[0]',
      { numero: '809-555-0101' },
    );
    assert.ok(
      issuesOf(await validate(phones)).errors.includes(
        'FIELD_TYPE_INVALID@ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[0]',
      ),
    );
  });

  test('ECF must be an object', async () => {
    assert.deepEqual(issuesOf(await validate({ ECF: 'x' })).errors, ['FIELD_TYPE_INVALID@ECF']);
  });
});

describe('validateSubmission: simplified optional nodes', () => {
  test('each optional property lands on its tax-authority element', async () => {
    const body = example('31');
    Object.assign(body, {
      sellerCode: 'V-01',
      internalInvoiceNumber: 'FAC-1001',
      internalOrderNumber: '55012',
      paymentTerm: '30 días',
      signatureDate: '2026-11-21T10:59:00-04:00',
      delivery: {
        date: '2026-11-25',
        contact: 'Pedro Almonte',
        address: 'Calle El Conde 52',
        phone: '809-555-0199',
      },
      transport: { driver: 'Luis Reyes', plate: 'L123456' },
    });
    setPath(body, 'buyer.purchaseOrderNumber', 'OC-77');
    setPath(body, 'buyer.purchaseOrderDate', '2026-11-20');
    setPath(body, 'issuer.tradeName', 'Caribe Digital');
    setPath(body, 'lines[0].unitOfMeasure', '43');
    setPath(body, 'lines[0].description', 'Saco de 42.5 kg');
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const ecf = result.data.document.ECF;
    const expected: ReadonlyArray<readonly [string, string]> = [
      ['Encabezado.Emisor.CodigoVendedor', 'V-01'],
      ['Encabezado.Emisor.NumeroFacturaInterna', 'FAC-1001'],
      ['Encabezado.Emisor.NumeroPedidoInterno', '55012'],
      ['Encabezado.Emisor.NombreComercial', 'Caribe Digital'],
      ['Encabezado.IdDoc.TerminoPago', '30 días'],
      ['Encabezado.Comprador.FechaEntrega', '25-11-2026'],
      ['Encabezado.Comprador.ContactoEntrega', 'Pedro Almonte'],
      ['Encabezado.Comprador.DireccionEntrega', 'Calle El Conde 52'],
      ['Encabezado.Comprador.TelefonoAdicional', '809-555-0199'],
      ['Encabezado.Comprador.NumeroOrdenCompra', 'OC-77'],
      ['Encabezado.Comprador.FechaOrdenCompra', '20-11-2026'],
      ['Encabezado.Transporte.Conductor', 'Luis Reyes'],
      ['Encabezado.Transporte.Placa', 'L123456'],
      ['DetallesItems.Item[0].UnidadMedida', '43'],
      ['DetallesItems.Item[0].DescripcionItem', 'Saco de 42.5 kg'],
      ['FechaHoraFirma', '21-11-2026 10:59:00'],
    ];
    for (const [path, value] of expected) assert.equal(getPath(ecf, path), value, path);
  });

  test('every issue mirrors its code in details.code', async () => {
    const body = setPath(setPath(example('31'), 'lines[0].unitPrice', 'x'), 'colour', 'red');
    const result = await validate(body, { lookupTaxpayer: () => null });
    assert.ok(!result.success);
    for (const issue of [...result.errors, ...result.warnings]) {
      assert.equal(issue.details.code, issue.code);
      assert.equal(typeof issue.message, 'string');
    }
  });
});
