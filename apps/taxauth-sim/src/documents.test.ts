import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  authenticate,
  getWithToken,
  issuerFor,
  openSimulator,
  postXml,
  signedAcecf,
  signedAnecf,
  signedEcf,
  signedRfce,
  waitForResult,
  type TSimulatorHarness,
  jsonOf,
} from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
const issuer = issuerFor('131880738');
const buyer = issuerFor('101672919');
const tokens: Record<string, string> = {};

before(async () => {
  harness = await openSimulator({
    directory: [
      {
        rnc: '101672919',
        name: 'Cliente & Asociados',
        receptionUrl: 'http://127.0.0.1:9/fe/recepcion/api/ecf',
        commercialApprovalUrl: 'http://127.0.0.1:9/fe/aprobacioncomercial/api/ecf',
      },
      { rnc: '130862346', receptionUrl: 'http://127.0.0.1:9/b/fe/recepcion/api/ecf' },
    ],
  });
  for (const environment of ['testecf', 'ecf'])
    tokens[environment] = await authenticate(harness.baseUrl, environment, issuer);
  tokens['buyer'] = await authenticate(harness.baseUrl, 'testecf', buyer);
});
after(async () => {
  await harness.close();
});

test('RFCE reception answers synchronously with its states, and duplicates are refused', async () => {
  const url = `${harness.baseUrl}/testecf/recepcionfc/api/recepcion/ecf`;
  const summary = signedRfce(issuer, { encf: 'E320000000001' });
  let response = await postXml(url, summary.xml, { fileName: summary.fileName, token: tokens['testecf'] });
  assert.equal(response.status, 200);
  assert.deepEqual(await jsonOf(response), {
    codigo: 1,
    estado: 'Aceptado',
    mensajes: [{ codigo: '0', valor: '' }],
    encf: 'E320000000001',
    secuenciaUtilizada: true,
  });

  response = await postXml(url, summary.xml, { fileName: summary.fileName, token: tokens['testecf'] });
  const duplicate = await jsonOf(response);
  assert.equal(duplicate.estado, 'Rechazado');
  assert.equal(duplicate.mensajes[0].codigo, '9');

  const above = signedRfce(issuer, { encf: 'E320000000002', total: 300_000 });
  response = await postXml(url, above.xml, { fileName: above.fileName, token: tokens['testecf'] });
  const aboveBody = await jsonOf(response);
  assert.equal(aboveBody.estado, 'Rechazado');
  assert.equal(aboveBody.secuenciaUtilizada, false);

  const conditional = signedRfce(issuer, { encf: 'E320000000003', buyer: '000000002' });
  response = await postXml(url, conditional.xml, {
    fileName: conditional.fileName,
    token: tokens['testecf'],
  });
  assert.equal((await jsonOf(response)).codigo, 4);

  const tampered = signedRfce(issuer, { encf: 'E320000000004' }).xml.replace(
    '<MontoTotal>118.00</MontoTotal>',
    '<MontoTotal>119.00</MontoTotal>',
  );
  response = await postXml(url, tampered, {
    fileName: `${issuer.rnc}E320000000004.xml`,
    token: tokens['testecf'],
  });
  const tamperedBody = await jsonOf(response);
  assert.equal(tamperedBody.estado, 'Rechazado');
  assert.equal(tamperedBody.secuenciaUtilizada, false);

  response = await postXml(`${harness.baseUrl}/certecf/recepcionfc/api/recepcion/ecf`, summary.xml, {
    fileName: summary.fileName,
    token: tokens['testecf'],
  });
  assert.equal(
    response.status,
    401,
    'recepcionfc is published in CerteCF (certification data tests): a TesteCF token is not valid there',
  );
});

test('ConsultaRFCE (production) finds a summary by issuer, e-NCF and security code; Consulta Estado sees it too', async () => {
  const summary = signedRfce(issuer, { encf: 'E320000000010', securityCode: 'Xy1+2/' });
  const response = await postXml(`${harness.baseUrl}/ecf/recepcionfc/api/recepcion/ecf`, summary.xml, {
    fileName: summary.fileName,
    token: tokens['ecf'],
  });
  assert.equal((await jsonOf(response)).estado, 'Aceptado');
  const base = `${harness.baseUrl}/ecf/consultarfce/api/Consultas/Consulta?RNC_Emisor=131880738&ENCF=E320000000010`;
  let found = await jsonOf(
    await getWithToken(`${base}&Cod_Seguridad_eCF=${encodeURIComponent('Xy1+2/')}`, tokens['ecf']),
  );
  assert.deepEqual(found, {
    rnc: '131880738',
    encf: 'E320000000010',
    secuenciaUtilizada: true,
    codigo: '1',
    estado: 'Aceptado',
    mensajes: [{ valor: '', codigo: 0 }],
  });
  found = await jsonOf(await getWithToken(`${base}&Cod_Seguridad_eCF=nope00`, tokens['ecf']));
  assert.equal(found.estado, 'No encontrado');
  const testecf = await getWithToken(
    `${harness.baseUrl}/testecf/consultarfce/api/Consultas/Consulta?RNC_Emisor=131880738&ENCF=E320000000010&Cod_Seguridad_eCF=x`,
    tokens['testecf'],
  );
  assert.equal(testecf.status, 404, 'only published in production');
  const state = await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/ecf/consultaestado/api/consultas/estado?rncemisor=131880738&ncfelectronico=E320000000010`,
      tokens['ecf'],
    ),
  );
  assert.equal(state.estado, 'Aceptado');
  assert.equal(state.montoTotal, 118);
});

test('commercial approval is accepted only for an accepted e-CF with matching data, from its buyer', async () => {
  const url = `${harness.baseUrl}/testecf/aprobacioncomercial/api/aprobacioncomercial`;
  const base = {
    rncEmisor: issuer.rnc,
    encf: 'E310000000077',
    fechaEmision: '01-04-2026',
    montoTotal: '236.00',
    estado: 'accepted' as const,
  };
  let response = await postXml(url, signedAcecf(buyer, base), {
    fileName: `${buyer.rnc}E310000000077.xml`,
    token: tokens['buyer'],
  });
  assert.equal(response.status, 400);
  assert.deepEqual(await jsonOf(response), {
    mensaje: ['Factura no encontrada para esta Aprobación comercial.'],
    estado: 'Aprobación comercial rechazada',
    codigo: '2',
  });

  const document = signedEcf(issuer, { encf: 'E310000000077' });
  const sent = await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, document.xml, {
    fileName: document.fileName,
    token: tokens['testecf'],
  });
  await waitForResult(
    harness.baseUrl,
    'testecf',
    tokens['testecf'] ?? '',
    ((await jsonOf(sent)) as { trackId: string }).trackId,
  );

  response = await postXml(url, signedAcecf(buyer, { ...base, montoTotal: '237.00' }), {
    token: tokens['buyer'],
  });
  assert.deepEqual((await jsonOf(response)).mensaje, [
    'No se encuentra un e-CF válido para esta aprobación comercial',
  ]);
  response = await postXml(url, signedAcecf(buyer, base), { token: tokens['testecf'] });
  assert.deepEqual((await jsonOf(response)).mensaje, [
    'El RNC del certificado no está delegado para realizar transacciones para el RNC: 101672919',
  ]);
  response = await postXml(
    url,
    signedAcecf(buyer, base).replace('<Estado>1</Estado>', '<Estado>2</Estado>'),
    { token: tokens['buyer'] },
  );
  assert.deepEqual((await jsonOf(response)).mensaje, ['La firma del XML no es válida']);
  response = await postXml(url, 'hola', { token: tokens['buyer'] });
  assert.deepEqual((await jsonOf(response)).mensaje, ['Tipo de archivo no válido, favor proveer un XML']);
  response = await postXml(url, signedAcecf(buyer, { ...base, encf: 'E430000000001' }), {
    token: tokens['buyer'],
  });
  assert.deepEqual((await jsonOf(response)).mensaje, [
    'Aprobación Comercial no es requerida para este tipo de e-CF',
  ]);

  response = await postXml(url, signedAcecf(buyer, base), {
    fileName: `${buyer.rnc}E310000000077.xml`,
    token: tokens['buyer'],
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await jsonOf(response), {
    mensaje: [],
    estado: 'Aprobación comercial aprobada',
    codigo: '1',
  });
});

test('range annulment annuls unused sequences, refuses used ones, and annulled e-NCF cannot be sent', async () => {
  const url = `${harness.baseUrl}/testecf/anulacionrangos/api/operaciones/anularrango`;
  const used = signedEcf(issuer, { encf: 'E310000000205' });
  await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, used.xml, {
    fileName: used.fileName,
    token: tokens['testecf'],
  });

  let response = await postXml(
    url,
    signedAnecf(issuer, [{ type: '31', from: 'E310000000300', to: 'E310000000399' }]),
    { token: tokens['testecf'] },
  );
  assert.equal(response.status, 200);
  assert.deepEqual(await jsonOf(response), {
    rnc: '131880738',
    codigo: '1',
    nombre: 'Aceptado',
    mensajes: ['Las secuencias fueron anuladas correctamente.'],
  });

  response = await postXml(
    url,
    signedAnecf(issuer, [{ type: '31', from: 'E310000000200', to: 'E310000000210' }]),
    { token: tokens['testecf'] },
  );
  assert.equal(response.status, 400);
  const refused = await jsonOf(response);
  assert.equal(refused.codigo, '2');
  assert.ok(refused.mensajes.includes('Las secuencias que está intentando anular han sido utilizadas'));

  response = await postXml(
    url,
    signedAnecf(issuer, [
      { type: '31', from: 'E310000000201', to: 'E310000000206' },
      { type: '31', from: 'E310000000500', to: 'E310000000500' },
    ]),
    { token: tokens['testecf'] },
  );
  const partial = await jsonOf(response);
  assert.equal(partial.codigo, '3');
  assert.equal(
    partial.mensajes[0],
    'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
  );

  const annulled = signedEcf(issuer, { encf: 'E310000000350' });
  const sent = await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, annulled.xml, {
    fileName: annulled.fileName,
    token: tokens['testecf'],
  });
  const result = await waitForResult(
    harness.baseUrl,
    'testecf',
    tokens['testecf'] ?? '',
    ((await jsonOf(sent)) as { trackId: string }).trackId,
  );
  assert.equal(result['estado'], 'Rechazado');
  assert.deepEqual(result['mensajes'], [
    { valor: 'El e-NCF E310000000350 fue anulado y no puede ser utilizado', codigo: 8 },
  ]);

  response = await postXml(
    url,
    signedAnecf(issuer, [{ type: '31', from: 'E310000000600', to: 'E310000000601' }]).replace(
      'E310000000601',
      'E310000000599',
    ),
    {
      token: tokens['testecf'],
    },
  );
  assert.deepEqual((await jsonOf(response)).mensajes, ['La firma del documento no es válida']);
  response = await postXml(
    url,
    signedAnecf(buyer, [{ type: '31', from: 'E310000000700', to: 'E310000000701' }]),
    { token: tokens['testecf'] },
  );
  assert.deepEqual((await jsonOf(response)).mensajes, [
    'El RNC del certificado no está delegado para realizar transacciones para el RNC',
  ]);
});

test('the directory of receivers comes from configuration', async () => {
  let response = await getWithToken(
    `${harness.baseUrl}/testecf/consultadirectorio/api/consultas/listado`,
    tokens['testecf'],
  );
  assert.equal(response.status, 200);
  const all = (await jsonOf(response)) as Array<Record<string, unknown>>;
  assert.equal(all.length, 2);
  assert.deepEqual(all[0], {
    nombre: 'Cliente & Asociados',
    rnc: '101672919',
    urlRecepcion: 'http://127.0.0.1:9/fe/recepcion/api/ecf',
    urlAceptacion: 'http://127.0.0.1:9/fe/aprobacioncomercial/api/ecf',
    urlOpcional: null,
  });
  response = await getWithToken(
    `${harness.baseUrl}/ecf/consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=130862346`,
    tokens['ecf'],
  );
  assert.deepEqual(
    ((await jsonOf(response)) as Array<{ rnc: string }>).map((entry) => entry.rnc),
    ['130862346'],
  );
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultadirectorio/api/consultas/listado?rnc=999999999`,
    tokens['testecf'],
  );
  assert.deepEqual(await jsonOf(response), []);
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultadirectorio/api/consultas/listado`,
    undefined,
  );
  assert.equal(response.status, 401);
});

test('PUT /_sim/directory adds and replaces receivers at run time; bad entries are 400', async () => {
  const put = (body: unknown) =>
    fetch(`${harness.baseUrl}/_sim/directory`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  assert.equal(
    (await put([{ rnc: '131999001', name: 'Nuevo', receptionUrl: 'http://127.0.0.1:9/TesteCF' }])).status,
    204,
  );
  assert.equal(
    (
      await put([
        {
          rnc: '131999001',
          receptionUrl: 'http://127.0.0.1:8/TesteCF',
          commercialApprovalUrl: 'http://127.0.0.1:8/TesteCF',
        },
      ])
    ).status,
    204,
  );
  const response = await getWithToken(
    `${harness.baseUrl}/testecf/consultadirectorio/api/consultas/obtenerdirectorioporrnc?RNC=131999001`,
    tokens['testecf'],
  );
  assert.deepEqual(await jsonOf(response), [
    {
      nombre: null,
      rnc: '131999001',
      urlRecepcion: 'http://127.0.0.1:8/TesteCF',
      urlAceptacion: 'http://127.0.0.1:8/TesteCF',
      urlOpcional: null,
    },
  ]);
  const refused = await put([{ rnc: 'abc', receptionUrl: 'not a url' }]);
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'INVALID_DIRECTORY');
  assert.equal((await put([])).status, 400);
});

test('the status host answers with an API key, with or without an environment prefix', async () => {
  let response = await fetch(`${harness.baseUrl}/api/estatusservicios/obtenerestatus`);
  assert.equal(response.status, 401);
  response = await fetch(`${harness.baseUrl}/TesteCF/api/EstatusServicios/ObtenerEstatus`, {
    headers: { authorization: 'Apikey abc' },
  });
  const list = (await jsonOf(response)) as Array<{ servicio: string; estatus: string; ambiente: string }>;
  assert.equal(list.length, 27);
  assert.ok(list.every((entry) => entry.estatus === 'Disponible'));
  response = await fetch(`${harness.baseUrl}/api/estatusservicios/verificarestado?ambiente=2`, {
    headers: { authorization: 'Apikey abc' },
  });
  assert.deepEqual(await jsonOf(response), { estado: 'Disponible' });
  response = await fetch(`${harness.baseUrl}/api/estatusservicios/verificarestado?ambiente=7`, {
    headers: { authorization: 'Apikey abc' },
  });
  assert.equal(response.status, 400);
  response = await fetch(`${harness.baseUrl}/api/estatusservicios/obtenerventanasmantenimiento`, {
    headers: { authorization: 'Apikey abc' },
  });
  assert.deepEqual(await jsonOf(response), { ventanaMantenimientos: [] });
});
