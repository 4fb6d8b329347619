import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signXml } from '@ecf/fiscal-core';
import {
  authenticate,
  buildEcf,
  getWithToken,
  issuerFor,
  openSimulator,
  postXml,
  signedEcf,
  waitForResult,
  type TSimulatorHarness,
  jsonOf,
} from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
const issuer = issuerFor('131880738');
const buyer = issuerFor('101672919');
const other = issuerFor('130862346');
let token: string;
let sequence = 1000;
const nextEncf = (type = '31') => `E${type}${String((sequence += 1)).padStart(10, '0')}`;

before(async () => {
  harness = await openSimulator({ processingDelayMs: 150 });
  token = await authenticate(harness.baseUrl, 'testecf', issuer);
});
after(async () => {
  await harness.close();
});

const receptionUrl = () => `${harness.baseUrl}/TesteCF/recepcion/api/FacturasElectronicas`;

async function send(xml: string, fileName: string, withToken = token): Promise<string> {
  const response = await postXml(receptionUrl(), xml, { fileName, token: withToken });
  assert.equal(response.status, 200, await response.clone().text());
  const body = (await jsonOf(response)) as { trackId: string; error: unknown; mensaje: unknown };
  assert.match(body.trackId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(body.error, null);
  return body.trackId;
}

async function result(trackId: string) {
  return waitForResult(harness.baseUrl, 'testecf', token, trackId);
}

test('an e-CF is "En Proceso" first, then "Aceptado" with the tax authority fields', async () => {
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  const trackId = await send(document.xml, document.fileName);
  const first = (await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=${trackId}`,
      token,
    ),
  )) as Record<string, unknown>;
  assert.equal(first['codigo'], 3);
  assert.equal(first['estado'], 'En Proceso');
  const final = await result(trackId);
  assert.deepEqual(
    { ...final, fechaRecepcion: undefined },
    {
      trackId,
      codigo: 1,
      estado: 'Aceptado',
      rnc: '131880738',
      encf,
      secuenciaUtilizada: true,
      fechaRecepcion: undefined,
      mensajes: [{ valor: '', codigo: 0 }],
    },
  );
  assert.match(String(final['fechaRecepcion']), /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/);

  const xml = await getWithToken(
    `${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?TrackId=${trackId}`,
    token,
  ).then(async () =>
    (
      await fetch(`${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=${trackId}`, {
        headers: { accept: 'application/xml', authorization: `bearer ${token}` },
      })
    ).text(),
  );
  assert.match(xml, /<estado>Aceptado<\/estado>/);
  // A trackId is a GUID: its letter case does not matter.
  const upper = (await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=${trackId.toUpperCase()}`,
      token,
    ),
  )) as Record<string, unknown>;
  assert.equal(upper['estado'], 'Aceptado');
  assert.equal(upper['encf'], encf);
});

test('a tampered signature is rejected without using the e-NCF, which can be sent again', async () => {
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  const tampered = document.xml.replace('<MontoTotal>236.00</MontoTotal>', '<MontoTotal>236.01</MontoTotal>');
  assert.notEqual(tampered, document.xml);
  const rejected = await result(await send(tampered, document.fileName));
  assert.equal(rejected['estado'], 'Rechazado');
  assert.equal(rejected['codigo'], 2);
  assert.equal(rejected['secuenciaUtilizada'], false);
  assert.deepEqual(rejected['mensajes'], [{ valor: 'La firma del XML no es válida', codigo: 2 }]);
  const accepted = await result(await send(document.xml, document.fileName));
  assert.equal(accepted['estado'], 'Aceptado');
});

test('an XSD-invalid e-CF is rejected with the structure message and the XSD detail', async () => {
  const encf = nextEncf();
  const invalid = signXml(
    buildEcf({ rnc: issuer.rnc, encf }).replace('<TipoPago>1</TipoPago>', '<TipoPago>9</TipoPago>'),
    issuer.certificate,
  ).xml;
  const body = await result(await send(invalid, `${issuer.rnc}${encf}.xml`));
  assert.equal(body['estado'], 'Rechazado');
  assert.equal(body['secuenciaUtilizada'], false);
  const [entry] = body['mensajes'] as Array<{ valor: string; codigo: number }>;
  assert.match(
    entry?.valor ?? '',
    /^La estructura del archivo XML no es válido, favor proveer un XML con una estructura válida, verificar el XSD correspondiente\. .*TipoPago/,
  );
  assert.equal(entry?.codigo, 1);

  const notXml = await result(await send('esto no es XML', 'x.xml'));
  assert.equal(notXml['estado'], 'Rechazado');
});

test('an e-NCF already used is rejected and both submissions are listed by ConsultaTrackIds', async () => {
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  const first = await send(document.xml, document.fileName);
  const second = await send(document.xml, document.fileName);
  assert.equal((await result(first))['estado'], 'Aceptado');
  const duplicate = await result(second);
  assert.equal(duplicate['estado'], 'Rechazado');
  assert.equal(duplicate['secuenciaUtilizada'], true);
  assert.deepEqual(duplicate['mensajes'], [{ valor: `El e-NCF ${encf} ya fue utilizado`, codigo: 9 }]);

  const listed = await getWithToken(
    `${harness.baseUrl}/testecf/ConsultaTrackIds/api/TrackIds/Consulta?RncEmisor=131880738&Encf=${encf}`,
    token,
  );
  assert.equal(listed.status, 200);
  const items = (await jsonOf(listed)) as Array<{ trackId: string; estado: string; fechaRecepcion: string }>;
  assert.deepEqual(
    items.map((item) => [item.trackId, item.estado]),
    [
      [first, 'Aceptado'],
      [second, 'Rechazado'],
    ],
  );
});

test('ConsultaTrackIds validates its parameters and refuses another issuer', async () => {
  const base = `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta`;
  let response = await getWithToken(`${base}?encf=E310000000001`, token);
  assert.equal(response.status, 400);
  assert.deepEqual((await jsonOf(response)).errors, { RncEmisor: ['El campo RNC Emisor es requerido.'] });
  response = await getWithToken(`${base}?rncemisor=1318&encf=E3100`, token);
  assert.deepEqual((await jsonOf(response)).errors, {
    RncEmisor: ['La longitud del RNC Emisor es inválida.'],
    Encf: ['La longitud del ENCF es inválida.'],
  });
  response = await getWithToken(`${base}?rncemisor=130862346&encf=E310000000001`, token);
  assert.equal(response.status, 403);
  assert.match((await jsonOf(response)).title, /^El RNC del token no está autorizado a consultar el trackid/);
});

test('an e-CF of another RNC than the token is refused as not delegated, and so is one signed by someone else', async () => {
  const encf = nextEncf();
  const foreign = signedEcf(other, { encf });
  const body = await result(await send(foreign.xml, foreign.fileName));
  assert.equal(body['estado'], 'Rechazado');
  assert.equal(body['secuenciaUtilizada'], false);
  assert.deepEqual(body['mensajes'], [
    {
      valor: 'El RNC del certificado no está delegado para realizar transacciones para el RNC: 130862346',
      codigo: 3,
    },
  ]);

  const signedByOther = signXml(buildEcf({ rnc: issuer.rnc, encf: nextEncf() }), other.certificate).xml;
  const second = await result(
    await send(signedByOther, `${issuer.rnc}${String(/<eNCF>(\w+)</.exec(signedByOther)?.[1])}.xml`),
  );
  assert.equal(second['estado'], 'Rechazado');
  assert.equal((second['mensajes'] as Array<{ codigo: number }>)[0]?.codigo, 3);
});

test('file name, e-NCF format and expired sequence are judged as the tax authority does', async () => {
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  const badName = await result(await send(document.xml, `${issuer.rnc}.xml`));
  assert.equal(badName['estado'], 'Rechazado');
  assert.equal(badName['secuenciaUtilizada'], true);
  assert.equal((badName['mensajes'] as Array<{ codigo: number }>)[0]?.codigo, 10);

  const wrongType = signedEcf(issuer, { encf: nextEncf('33') });
  const typeMismatch = await result(await send(wrongType.xml, wrongType.fileName));
  assert.equal(typeMismatch['estado'], 'Rechazado');
  assert.equal(typeMismatch['secuenciaUtilizada'], false);
  assert.match(
    (typeMismatch['mensajes'] as Array<{ valor: string }>)[0]?.valor ?? '',
    /no es válido o no está autorizado/,
  );

  const expiredEncf = nextEncf();
  const expired = signedEcf(issuer, {
    encf: expiredEncf,
    vencimiento: '31-12-2025',
    fechaEmision: '02-01-2026',
  });
  const expiredBody = await result(await send(expired.xml, expired.fileName));
  assert.equal(expiredBody['estado'], 'Rechazado');
  assert.equal(expiredBody['secuenciaUtilizada'], false);
  assert.equal((expiredBody['mensajes'] as Array<{ codigo: number }>)[0]?.codigo, 5);
  const sameDay = signedEcf(issuer, {
    encf: nextEncf(),
    vencimiento: '02-01-2026',
    fechaEmision: '02-01-2026',
  });
  assert.equal((await result(await send(sameDay.xml, sameDay.fileName)))['estado'], 'Aceptado');

  const consumer = signedEcf(issuer, { encf: nextEncf('32'), type: '32' });
  const consumerBody = await result(await send(consumer.xml, consumer.fileName));
  assert.equal(consumerBody['estado'], 'Rechazado');
  assert.equal((consumerBody['mensajes'] as Array<{ codigo: number }>)[0]?.codigo, 6);
});

test('above the squaring tolerance is "Aceptado Condicional"; within it is "Aceptado"', async () => {
  const off = signedEcf(issuer, { encf: nextEncf(), firstLineAmount: '103.00' });
  const conditional = await result(await send(off.xml, off.fileName));
  assert.equal(conditional['estado'], 'Aceptado Condicional');
  assert.equal(conditional['codigo'], 4);
  assert.equal(conditional['secuenciaUtilizada'], true);
  const messages = conditional['mensajes'] as Array<{ valor: string; codigo: number }>;
  assert.ok(
    messages.some(
      (entry) =>
        entry.codigo === 13 && entry.valor.includes('Item[1].MontoItem') && entry.valor.includes('(103.00)'),
    ),
    JSON.stringify(messages),
  );

  const within = signedEcf(issuer, { encf: nextEncf(), firstLineAmount: '100.99' });
  assert.equal((await result(await send(within.xml, within.fileName)))['estado'], 'Aceptado');
});

test('magic buyer RNCs: 000000001 rejected, 000000002 conditional, 000000003 forever in process', async () => {
  const rejected = signedEcf(issuer, { encf: nextEncf(), buyer: '000000001' });
  const rejectedBody = await result(await send(rejected.xml, rejected.fileName));
  assert.equal(rejectedBody['estado'], 'Rechazado');
  assert.equal(rejectedBody['secuenciaUtilizada'], true);
  const conditional = signedEcf(issuer, { encf: nextEncf(), buyer: '000000002' });
  assert.equal(
    (await result(await send(conditional.xml, conditional.fileName)))['estado'],
    'Aceptado Condicional',
  );
  const pending = signedEcf(issuer, { encf: nextEncf(), buyer: '000000003' });
  const pendingBody = await waitForResult(
    harness.baseUrl,
    'testecf',
    token,
    await send(pending.xml, pending.fileName),
    400,
  );
  assert.equal(pendingBody['estado'], 'En Proceso');
});

test('Consulta Estado answers issuer and buyer, and checks buyer and security code when given', async () => {
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  await result(await send(document.xml, document.fileName));
  const url = `${harness.baseUrl}/testecf/consultaestado/api/consultas/estado?rncemisor=131880738&ncfelectronico=${encf}`;
  let response = await getWithToken(url, token);
  assert.equal(response.status, 200);
  assert.deepEqual(await jsonOf(response), {
    codigo: 1,
    estado: 'Aceptado',
    rncEmisor: '131880738',
    ncfElectronico: encf,
    montoTotal: 236,
    totalITBIS: 36,
    fechaEmision: '01-04-2026',
    fechaFirma: '01-04-2026 10:15:00',
    rncComprador: '101672919',
    codigoSeguridad: document.securityCode,
    idExtranjero: null,
  });
  const buyerToken = await authenticate(harness.baseUrl, 'testecf', buyer);
  response = await getWithToken(
    `${url}&rnccomprador=101672919&codigoseguridad=${encodeURIComponent(document.securityCode)}`,
    buyerToken,
  );
  assert.equal((await jsonOf(response)).codigo, 1);
  response = await getWithToken(`${url}&codigoseguridad=zzzzzz`, buyerToken);
  assert.equal((await jsonOf(response)).estado, 'No encontrado');
  const otherToken = await authenticate(harness.baseUrl, 'testecf', other);
  response = await getWithToken(url, otherToken);
  assert.equal(response.status, 403);
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultaestado/api/consultas/estado?rncemisor=131880738`,
    token,
  );
  assert.equal(response.status, 400);
});

test('unknown trackIds are "No encontrado", a missing one is a 400, bad uploads are 4xx and never 500', async () => {
  const base = `${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado`;
  let response = await getWithToken(`${base}?trackid=00000000-0000-0000-0000-000000000000`, token);
  const body = await jsonOf(response);
  assert.equal(body.codigo, 0);
  assert.equal(body.estado, 'No encontrado');
  response = await getWithToken(`${base}?trackid=not-a-guid`, token);
  assert.equal((await jsonOf(response)).codigo, 0);
  response = await getWithToken(base, token);
  assert.equal(response.status, 400);

  response = await fetch(receptionUrl(), {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: '{"x":1}',
  });
  assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
  response = await fetch(receptionUrl(), {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xyz' },
    body: 'garbage',
  });
  assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
  response = await postXml(receptionUrl(), '<ECF/>', { field: 'file', token });
  assert.equal(response.status, 400);
  assert.equal((await jsonOf(response)).trackId, null);
  response = await fetch(`${harness.baseUrl}/nope/recepcion/api/facturaselectronicas`, { method: 'POST' });
  assert.equal(response.status, 404);
});

test('a chunked upload without Content-Length is refused ("Multipart cannot be empty") and uses no eNCF', async () => {
  const { request } = await import('node:http');
  const encf = nextEncf();
  const document = signedEcf(issuer, { encf });
  const boundary = 'ecf-sim-chunked';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="${document.fileName}"\r\nContent-Type: text/xml\r\n\r\n${document.xml}\r\n--${boundary}--\r\n`,
  );
  const url = new URL(receptionUrl());
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          authorization: `bearer ${token}`,
          'transfer-encoding': 'chunked',
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.write(body.subarray(0, 100));
    outgoing.end(body.subarray(100));
  });
  assert.equal(answer.status, 400, answer.text);
  assert.match(answer.text, /Multipart cannot be empty/);
  // The same document sent properly is received: the refused upload used nothing.
  await send(document.xml, document.fileName);
});
