import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  createTestCertificate,
  loadCertificate,
  verifyXmlSignature,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { createReceiverClient, excerpt, KEPT_BODY_BYTES } from './receiver-client.ts';
import { authenticationBaseOf, commercialApprovalUrlOf, receptionUrlOf } from './receiver-urls.ts';
import { tokenOfValidationAnswer } from './seed-authentication.ts';

const SEED =
  '<?xml version="1.0" encoding="utf-8"?><SemillaModel><valor>abc123</valor><fecha>2026-11-24T10:00:00</fecha></SemillaModel>';

type TSeen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
type THandler = (request: TSeen, response: http.ServerResponse) => void;

let server: http.Server;
let base: string;
let handler: THandler = (_request, response) => response.writeHead(404).end();
const seen: TSeen[] = [];
const sockets = new Set<Socket>();
let certificate: TSigningCertificate;

before(async () => {
  const generated = createTestCertificate({ rnc: '131880738', commonName: 'Firmante de prueba' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  certificate = loaded.data;
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function reset(next: THandler): void {
  seen.length = 0;
  handler = next;
}

const client = createReceiverClient({ timeoutMs: 1500, maxAnswerBytes: 64 * 1024 });
const authenticationBase = () => new URL(`${base}/fe/autenticacion/api`);

/** A receiver whose validation answers `validation` (status and body) after a good seed. */
function authenticatingReceiver(validation: {
  status: number;
  body: string;
  contentType?: string;
}): THandler {
  return (request, response) => {
    if (request.method === 'GET' && request.path === '/fe/autenticacion/api/semilla') {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(SEED);
      return;
    }
    if (request.method === 'POST' && request.path === '/fe/autenticacion/api/validacioncertificado') {
      response.writeHead(validation.status, { 'content-type': validation.contentType ?? 'application/json' });
      response.end(validation.body);
      return;
    }
    response.writeHead(404).end();
  };
}

test('seed → signed seed → token: the seed is signed with the certificate and uploaded as semilla.xml', async () => {
  for (const body of [
    '{"token":"tok-1","expira":"x"}',
    '{"Token":"tok-1"}',
    '<RespuestaToken><token>tok-1</token></RespuestaToken>',
  ]) {
    reset(authenticatingReceiver({ status: 200, body }));
    const authenticated = await client.authenticate({ base: authenticationBase(), certificate });
    assert.deepEqual(authenticated, { ok: true, token: 'tok-1' }, body);
    const upload = seen[1];
    assert.ok(upload);
    assert.match(upload.body, /filename="semilla\.xml"/);
    assert.equal(upload.headers['content-length'], String(Buffer.byteLength(upload.body)));
    assert.equal(upload.headers['transfer-encoding'], undefined);
    const signedSeed = /<SemillaModel>[\s\S]*<\/SemillaModel>/.exec(upload.body)?.[0];
    assert.ok(signedSeed);
    const verified = verifyXmlSignature(signedSeed);
    assert.ok(verified.valid && verified.certificate.holderId === '131880738');
  }
});

test('authentication refusals: 4xx definite, 5xx/408/429 and no token transient, each with its reason', async () => {
  reset((_request, response) => response.writeHead(403, { 'content-type': 'text/plain' }).end('no'));
  assert.deepEqual(await client.authenticate({ base: authenticationBase(), certificate }), {
    ok: false,
    transient: false,
    failure: {
      reason: 'authentication_seed_http_403',
      httpStatus: 403,
      message: "The receiver's authentication (seed) answered HTTP 403.",
      body: 'no',
    },
  });
  for (const status of [500, 503, 408, 429]) {
    reset(authenticatingReceiver({ status, body: 'later' }));
    const failed = await client.authenticate({ base: authenticationBase(), certificate });
    assert.equal(failed.ok, false);
    assert.equal(!failed.ok && failed.transient, true, String(status));
    assert.equal(!failed.ok && failed.failure.reason, `authentication_validation_http_${status}`);
  }
  reset(authenticatingReceiver({ status: 401, body: '{"error":"firma invalida"}' }));
  const refused = await client.authenticate({ base: authenticationBase(), certificate });
  assert.equal(!refused.ok && refused.transient, false);
  reset(authenticatingReceiver({ status: 200, body: '{"expira":"x"}' }));
  const tokenless = await client.authenticate({ base: authenticationBase(), certificate });
  assert.equal(!tokenless.ok && tokenless.failure.reason, 'token_malformed');
  assert.equal(!tokenless.ok && tokenless.transient, true);
  reset((_request, response) => response.writeHead(200).end('not xml at all <<<'));
  const malformed = await client.authenticate({ base: authenticationBase(), certificate });
  assert.equal(!malformed.ok && malformed.failure.reason, 'seed_malformed');
});

test('sendEcf: multipart xml with the file name and a real Content-Length, Bearer when a token is given', async () => {
  reset((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/xml' }).end('<ARECF/>'),
  );
  const url = receptionUrlOf(base);
  assert.ok(url);
  const plain = await client.sendEcf({ url, xml: '<ECF>ñ</ECF>', fileName: '131880738E310000000001.xml' });
  assert.deepEqual(plain, { ok: true, status: 200, body: '<ARECF/>' });
  const [first] = seen;
  assert.ok(first);
  assert.equal(first.path, '/fe/recepcion/api/ecf');
  assert.equal(first.headers.authorization, undefined);
  assert.match(first.body, /name="xml"; filename="131880738E310000000001\.xml"/);
  assert.match(first.body, /<ECF>ñ<\/ECF>/);
  assert.equal(first.headers['content-length'], String(Buffer.byteLength(first.body)));
  assert.equal(first.headers['transfer-encoding'], undefined);
  await client.sendEcf({ url, xml: '<ECF/>', fileName: 'a.xml', token: 'tok-9' });
  assert.equal(seen[1]?.headers.authorization, 'Bearer tok-9');
});

test('a redirect is not followed; a refusal keeps its status; an oversized answer is abandoned', async () => {
  reset((request, response) => {
    if (request.path === '/elsewhere') response.writeHead(200).end('<ARECF/>');
    else response.writeHead(302, { location: `${base}/elsewhere` }).end();
  });
  const url = new URL(`${base}/fe/recepcion/api/ecf`);
  assert.deepEqual(await client.sendEcf({ url, xml: '<ECF/>', fileName: 'a.xml' }), {
    ok: true,
    status: 302,
    body: '',
  });
  assert.deepEqual(
    seen.map((request) => request.path),
    ['/fe/recepcion/api/ecf'],
  );
  reset((_request, response) => {
    response.writeHead(200);
    // Far past the limit, in pieces: the client stops reading.
    for (let index = 0; index < 100; index += 1) response.write('x'.repeat(4096));
    response.end();
  });
  const large = await client.sendEcf({ url, xml: '<ECF/>', fileName: 'a.xml' });
  assert.deepEqual(large, {
    ok: false,
    reason: 'answer_too_large',
    message: 'The answer exceeds 65536 bytes.',
  });
});

test('no answer within the timeout, and a closed port, are told apart', async () => {
  reset(() => undefined);
  const started = Date.now();
  const silent = await client.sendEcf({
    url: new URL(`${base}/fe/recepcion/api/ecf`),
    xml: '<ECF/>',
    fileName: 'a.xml',
  });
  assert.deepEqual(silent, { ok: false, reason: 'timeout', message: 'No answer within 1500 ms.' });
  assert.ok(Date.now() - started < 5000);
  // A port nobody listens on any more.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const closed = await client.sendEcf({
    url: new URL(`http://127.0.0.1:${port}/fe/recepcion/api/ecf`),
    xml: '<ECF/>',
    fileName: 'a.xml',
  });
  assert.equal(closed.ok, false);
  assert.equal(!closed.ok && closed.reason, 'connection');
  assert.equal(
    !closed.ok && closed.message,
    `POST 127.0.0.1:${port}/fe/recepcion/api/ecf failed (ECONNREFUSED).`,
  );
});

test('service URLs from a directory entry: hosts get the tax authority path, full paths are kept', () => {
  assert.equal(
    receptionUrlOf('https://buyer.example')?.toString(),
    'https://buyer.example/fe/recepcion/api/ecf',
  );
  assert.equal(
    receptionUrlOf(' https://buyer.example/base/ ')?.toString(),
    'https://buyer.example/base/fe/recepcion/api/ecf',
  );
  assert.equal(
    receptionUrlOf('https://buyer.example/FE/Recepcion/api/ecf?x=1#y')?.toString(),
    'https://buyer.example/FE/Recepcion/api/ecf',
  );
  assert.equal(receptionUrlOf('ftp://buyer.example'), undefined);
  assert.equal(receptionUrlOf('not a url'), undefined);
  assert.equal(
    commercialApprovalUrlOf('http://buyer.example:8080')?.toString(),
    'http://buyer.example:8080/fe/aprobacioncomercial/api/ecf',
  );
  for (const configured of [
    'https://auth.example',
    'https://auth.example/fe/autenticacion/api',
    'https://auth.example/fe/autenticacion/api/semilla',
    'https://auth.example/fe/autenticacion/api/validacioncertificado/',
  ]) {
    assert.equal(
      authenticationBaseOf(configured)?.toString(),
      'https://auth.example/fe/autenticacion/api',
      configured,
    );
  }
});

test('tokens of validation answers, and body excerpts', () => {
  assert.equal(tokenOfValidationAnswer('{"TOKEN":"a"}'), 'a');
  assert.equal(tokenOfValidationAnswer('{"token":""}'), undefined);
  assert.equal(tokenOfValidationAnswer('<x><Token> b </Token></x>'), 'b');
  assert.equal(tokenOfValidationAnswer('nothing'), undefined);
  assert.equal(excerpt('short'), 'short');
  assert.equal(Buffer.byteLength(excerpt('é'.repeat(KEPT_BODY_BYTES))), KEPT_BODY_BYTES);
});
