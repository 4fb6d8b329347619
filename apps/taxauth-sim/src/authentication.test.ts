import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signForeignXml } from '@ecf/fiscal-core';
import {
  authenticate,
  getWithToken,
  issuerFor,
  openSimulator,
  postXml,
  signedEcf,
  type TSimulatorHarness,
  jsonOf,
} from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
let clock = new Date('2026-04-01T14:00:00Z');
const issuer = issuerFor('131880738');

before(async () => {
  harness = await openSimulator({ now: () => clock });
});
after(async () => {
  await harness.close();
});

function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

test('the seed is a SemillaModel with a base64 value and a .NET round-trip date, on any letter case', async () => {
  const response = await fetch(`${harness.baseUrl}/TesteCF/Autenticacion/api/Autenticacion/Semilla`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /xml/);
  const xml = await response.text();
  assert.match(
    xml,
    /^<\?xml version="1.0" encoding="utf-8"\?><SemillaModel xmlns:xsi="[^"]+" xmlns:xsd="[^"]+"><valor>[A-Za-z0-9+/=]{40,}<\/valor>/,
  );
  assert.match(xml, /<fecha>2026-04-01T10:00:00\.0000000-04:00<\/fecha><\/SemillaModel>$/);
});

test('a signed seed gives a one-hour HS256 JWT naming the certificate holder', async () => {
  const seed = await (
    await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`)
  ).text();
  const signed = signForeignXml(seed, issuer.certificate);
  assert.ok(signed.success);
  const response = await postXml(
    `${harness.baseUrl}/testecf/autenticacion/api/autenticacion/validarsemilla`,
    signed.data.xml,
  );
  assert.equal(response.status, 200);
  const body = (await jsonOf(response)) as { token: string; expira: string; expedido: string };
  assert.equal(body.expedido, '2026-04-01T14:00:00Z');
  assert.equal(body.expira, '2026-04-01T15:00:00Z');
  const [header] = body.token.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')), {
    alg: 'HS256',
    typ: 'JWT',
  });
  const payload = decodePayload(body.token);
  assert.equal(payload['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'], '131880738');
  assert.equal(payload['iss'], 'DGII.FE');
  assert.equal(payload['aud'], 'USUARIOS.DGII.FE');
  assert.equal(Number(payload['exp']) - Number(payload['nbf']), 3600);
});

test('the token answer comes as RespuestaAutenticacion XML when asked', async () => {
  const seed = await (await fetch(`${harness.baseUrl}/ecf/autenticacion/api/autenticacion/semilla`)).text();
  const signed = signForeignXml(seed, issuer.certificate);
  assert.ok(signed.success);
  const response = await postXml(
    `${harness.baseUrl}/ecf/autenticacion/api/autenticacion/validarsemilla`,
    signed.data.xml,
    { accept: 'application/xml' },
  );
  assert.equal(response.status, 200);
  assert.match(
    await response.text(),
    /<RespuestaAutenticacion><token>[^<]+<\/token><expira>2026-04-01T15:00:00Z<\/expira><expedido>2026-04-01T14:00:00Z<\/expedido><\/RespuestaAutenticacion>$/,
  );
});

test('a tampered, unsigned, foreign or expired-certificate seed gets no token', async () => {
  const url = `${harness.baseUrl}/testecf/autenticacion/api/autenticacion/validarsemilla`;
  const seed = await (
    await fetch(`${harness.baseUrl}/testecf/autenticacion/api/autenticacion/semilla`)
  ).text();
  const signed = signForeignXml(seed, issuer.certificate);
  assert.ok(signed.success);

  const tampered = signed.data.xml.replace(
    /<fecha>[^<]+<\/fecha>/,
    '<fecha>2026-04-01T10:00:01.0000000-04:00</fecha>',
  );
  assert.notEqual(tampered, signed.data.xml);
  let response = await postXml(url, tampered);
  assert.equal(response.status, 400);
  assert.equal(await response.text(), 'Firma del certificado invalida');

  response = await postXml(url, seed);
  assert.equal(response.status, 400);
  assert.equal(await response.text(), 'Firma del certificado invalida');

  const invented = seed.replace(
    /<valor>[^<]+<\/valor>/,
    `<valor>${Buffer.from('not a seed of this simulator').toString('base64')}</valor>`,
  );
  const signedInvented = signForeignXml(invented, issuer.certificate);
  assert.ok(signedInvented.success);
  response = await postXml(url, signedInvented.data.xml);
  assert.equal(response.status, 400);
  assert.match(await response.text(), /semilla no es válida/);

  // A seed of another environment is not accepted here.
  const otherSeed = await (
    await fetch(`${harness.baseUrl}/certecf/autenticacion/api/autenticacion/semilla`)
  ).text();
  const signedOther = signForeignXml(otherSeed, issuer.certificate);
  assert.ok(signedOther.success);
  response = await postXml(url, signedOther.data.xml);
  assert.equal(response.status, 400);

  const expired = issuerFor('131880738', {
    validFrom: new Date('2020-01-01T00:00:00Z'),
    validTo: new Date('2025-01-01T00:00:00Z'),
  });
  const signedExpired = signForeignXml(seed, expired.certificate);
  assert.ok(signedExpired.success);
  response = await postXml(url, signedExpired.data.xml);
  assert.equal(response.status, 400);
  assert.equal(await response.text(), 'El certificado no está vigente');

  response = await postXml(url, signed.data.xml, { field: 'archivo' });
  assert.equal(response.status, 400);
  response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
});

test('services refuse a missing, forged, expired, other-environment or pre-reset token with 401', async () => {
  const reception = (environment: string) =>
    `${harness.baseUrl}/${environment}/recepcion/api/facturaselectronicas`;
  const document = signedEcf(issuer, { encf: 'E310000000101' });
  let response = await postXml(reception('testecf'), document.xml, { fileName: document.fileName });
  assert.equal(response.status, 401);

  const token = await authenticate(harness.baseUrl, 'testecf', issuer);
  const [header, , signature] = token.split('.') as [string, string, string];
  const forgedPayload = Buffer.from(
    JSON.stringify({
      ...decodePayload(token),
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name': '101672919',
    }),
  ).toString('base64url');
  response = await postXml(reception('testecf'), document.xml, {
    fileName: document.fileName,
    token: `${header}.${forgedPayload}.${signature}`,
  });
  assert.equal(response.status, 401);
  assert.match(response.headers.get('www-authenticate') ?? '', /invalid_token/);

  response = await postXml(reception('ecf'), document.xml, { fileName: document.fileName, token });
  assert.equal(response.status, 401, 'a TesteCF token is not valid in eCF');

  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=E310000000101`,
    token,
  );
  assert.equal(response.status, 200);
  clock = new Date(clock.getTime() + 3600_000);
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=E310000000101`,
    token,
  );
  assert.equal(response.status, 401, 'expired after one hour');

  const fresh = await authenticate(harness.baseUrl, 'testecf', issuer);
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=E310000000101`,
    fresh,
  );
  assert.equal(response.status, 200);
  assert.equal((await fetch(`${harness.baseUrl}/_sim/reset`, { method: 'POST' })).status, 204);
  response = await getWithToken(
    `${harness.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=E310000000101`,
    fresh,
  );
  assert.equal(response.status, 401, 'a reset invalidates earlier tokens');
});

test('a simulator with another secret does not accept the token', async () => {
  const token = await authenticate(harness.baseUrl, 'testecf', issuer);
  const other = await harness.startAnother({
    tokenSecret: 'another-secret-of-at-least-16',
    schema: 'taxauth_sim_other',
  });
  const response = await getWithToken(
    `${other.baseUrl}/testecf/consultatrackids/api/trackids/consulta?rncemisor=131880738&encf=E310000000101`,
    token,
  );
  assert.equal(response.status, 401);
});
