import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, beforeEach, test } from 'node:test';
import { signForeignXml } from '@ecf/fiscal-core';
import {
  authenticate,
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
let token: string;
let sequence = 5000;
const nextEncf = () => `E31${String((sequence += 1)).padStart(10, '0')}`;

before(async () => {
  harness = await openSimulator();
});
beforeEach(async () => {
  assert.equal((await fetch(`${harness.baseUrl}/_sim/reset`, { method: 'POST' })).status, 204);
  token = await authenticate(harness.baseUrl, 'testecf', issuer);
});
after(async () => {
  await harness.close();
});

async function inject(fault: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${harness.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const body = (await jsonOf(response)) as { id: string };
  assert.match(body.id, /^[0-9a-f-]{36}$/);
  return body.id;
}

const receptionUrl = () => `${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`;

async function sendDocument(encf = nextEncf()): Promise<Response> {
  const document = signedEcf(issuer, { encf });
  return postXml(receptionUrl(), document.xml, { fileName: document.fileName, token });
}

test('the admin API validates, lists and deletes faults', async () => {
  let response = await fetch(`${harness.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'prod', service: 'x', fault: 'boom' }),
  });
  assert.equal(response.status, 400);
  assert.equal((await jsonOf(response)).error.code, 'INVALID_FAULT');
  const first = await inject({ environment: 'testecf', service: 'Recepcion', fault: 'http_503', count: 2 });
  await inject({ environment: '*', service: '*', fault: 'slow', delayMs: 10 });
  response = await fetch(`${harness.baseUrl}/_sim/faults`);
  const listed = (await jsonOf(response)) as Array<Record<string, unknown>>;
  assert.deepEqual(
    listed.map((fault) => [fault['environment'], fault['service'], fault['fault'], fault['remaining']]),
    [
      ['testecf', 'recepcion', 'http_503', 2],
      ['*', '*', 'slow', null],
    ],
  );
  assert.equal((await fetch(`${harness.baseUrl}/_sim/faults/${first}`, { method: 'DELETE' })).status, 204);
  assert.equal(((await jsonOf(await fetch(`${harness.baseUrl}/_sim/faults`))) as unknown[]).length, 1);
  assert.equal((await fetch(`${harness.baseUrl}/_sim/faults`, { method: 'DELETE' })).status, 204);
  assert.deepEqual(await jsonOf(await fetch(`${harness.baseUrl}/_sim/faults`)), []);
  const health = await fetch(`${harness.baseUrl}/_sim/health`);
  assert.deepEqual(await jsonOf(health), { ok: true, status: 'ok', service: 'taxauth-sim' });
});

test('http_503 answers 503 for its count, only on its environment and service', async () => {
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'http_503', count: 1 });
  const seed = await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`);
  assert.equal(seed.status, 200, 'another service is not affected');
  const failed = await sendDocument();
  assert.equal(failed.status, 503);
  assert.match(await failed.text(), /Service Unavailable/);
  const next = await sendDocument();
  assert.equal(next.status, 200, 'count 1 is used up');
});

test('concurrent requests all meet a fault that still applies (unlimited, or counted with applications left)', async () => {
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'http_503' });
  const unlimited = await Promise.all(Array.from({ length: 6 }, () => sendDocument()));
  assert.deepEqual(
    unlimited.map((response) => response.status),
    [503, 503, 503, 503, 503, 503],
  );

  assert.equal((await fetch(`${harness.baseUrl}/_sim/faults`, { method: 'DELETE' })).status, 204);
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'http_503', count: 3 });
  const counted = await Promise.all(Array.from({ length: 5 }, () => sendDocument()));
  assert.deepEqual(counted.map((response) => response.status).sort(), [200, 200, 503, 503, 503]);
});

test('connection_reset destroys the socket without an answer', async () => {
  await inject({ environment: '*', service: 'recepcion', fault: 'connection_reset', count: 1 });
  await assert.rejects(sendDocument(), (error: Error) => {
    const cause = (error as { cause?: { code?: string } }).cause;
    assert.match(String(cause?.code ?? error.message), /ECONNRESET|UND_ERR_SOCKET|other side closed/);
    return true;
  });
  assert.equal((await sendDocument()).status, 200);
});

test('timeout keeps the socket open until the client gives up', async () => {
  await inject({ environment: 'testecf', service: 'consultaresultado', fault: 'timeout' });
  const started = Date.now();
  await assert.rejects(
    fetch(`${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=x`, {
      headers: { authorization: `bearer ${token}` },
      signal: AbortSignal.timeout(300),
    }),
    /TimeoutError|aborted/,
  );
  assert.ok(Date.now() - started >= 290);
});

test('slow answers normally after delayMs', async () => {
  await inject({ environment: 'testecf', service: 'autenticacion', fault: 'slow', delayMs: 400 });
  const started = Date.now();
  const response = await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`);
  assert.equal(response.status, 200);
  assert.ok(Date.now() - started >= 390, `took ${Date.now() - started} ms`);
});

test('auth_down makes only the authentication service fail (503 seed, 500 validation)', async () => {
  await inject({ environment: 'testecf', service: '*', fault: 'auth_down' });
  const seed = await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`);
  assert.equal(seed.status, 503);
  const validation = await postXml(
    `${harness.baseUrl}/testecf/autenticacion/api/autenticacion/validarsemilla`,
    '<SemillaModel/>',
  );
  assert.equal(validation.status, 500);
  assert.equal((await sendDocument()).status, 200, 'reception still works with a valid token');
  const status = await fetch(`${harness.baseUrl}/api/estatusservicios/obtenerestatus`, {
    headers: { authorization: 'Apikey test' },
  });
  const services = (await jsonOf(status)) as Array<{ servicio: string; estatus: string; ambiente: string }>;
  assert.equal(
    services.find((entry) => entry.servicio === 'Autenticación' && entry.ambiente === 'PreCertificacion')
      ?.estatus,
    'No Disponible',
  );
  assert.equal(
    services.find((entry) => entry.servicio === 'Recepción' && entry.ambiente === 'PreCertificacion')
      ?.estatus,
    'Disponible',
  );
  assert.equal(
    services.find((entry) => entry.servicio === 'Autenticación' && entry.ambiente === 'Produccion')?.estatus,
    'Disponible',
  );
});

test('not_delegated refuses the certificate at validarsemilla with the delegation message', async () => {
  await inject({ environment: 'testecf', service: 'autenticacion', fault: 'not_delegated', count: 1 });
  const seed = await (
    await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`)
  ).text();
  const signed = signForeignXml(seed, issuer.certificate);
  assert.ok(signed.success);
  const response = await postXml(
    `${harness.baseUrl}/testecf/autenticacion/api/autenticacion/validarsemilla`,
    signed.data.xml,
  );
  assert.equal(response.status, 400);
  assert.equal(
    await response.text(),
    'El RNC del certificado no está delegado para realizar transacciones para el RNC: 131880738',
  );
  assert.ok(await authenticate(harness.baseUrl, 'testecf', issuer));
});

test('reject and accept_conditional decide the next count receptions', async () => {
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'reject', count: 1 });
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'accept_conditional', count: 1 });
  const states: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    const response = await sendDocument();
    const { trackId } = (await jsonOf(response)) as { trackId: string };
    const body = await waitForResult(harness.baseUrl, 'testecf', token, trackId);
    states.push(String(body['estado']));
    if (index === 0)
      assert.deepEqual(body['mensajes'], [
        { valor: 'Rechazo simulado (fallo inyectado en el simulador)', codigo: 12 },
      ]);
  }
  assert.deepEqual(states, ['Rechazado', 'Aceptado Condicional', 'Aceptado']);
});

test('lose_answer records the submission but the client never hears back', async () => {
  await inject({ environment: 'testecf', service: 'recepcion', fault: 'lose_answer', count: 1 });
  const encf = nextEncf();
  await assert.rejects(sendDocument(encf));
  const listed = (await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=${encf}`,
      token,
    ),
  )) as Array<{
    trackId: string;
    estado: string;
  }>;
  assert.equal(listed.length, 1, 'the trackId exists');
  assert.equal(
    (await waitForResult(harness.baseUrl, 'testecf', token, listed[0]?.trackId ?? ''))['estado'],
    'Aceptado',
  );
  const again = await sendDocument(encf);
  const { trackId } = (await jsonOf(again)) as { trackId: string };
  const body = await waitForResult(harness.baseUrl, 'testecf', token, trackId);
  assert.equal(body['estado'], 'Rechazado', 'the e-NCF is used');
});

test('a hung request does not keep the simulator from closing', async () => {
  const other = await harness.startAnother();
  await inject({ environment: '*', service: '*', fault: 'timeout', count: 1 });
  const hung = new Promise<string>((resolve) => {
    const request = httpRequest(`${other.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`, () =>
      resolve('answered'),
    );
    request.on('error', () => resolve('closed'));
    request.end();
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await other.close();
  assert.equal(await hung, 'closed');
  assert.ok(Date.now() - started < 3000);
});
