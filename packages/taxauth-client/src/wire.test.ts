/**
 * What the client puts on the wire, read by a plain local HTTP server that records the raw request
 * (the simulator parses multipart itself, so it cannot show whether the body was chunked). The
 * services themselves are tested against the simulator in client.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createTestCertificate, loadCertificate, type TSigningCertificate } from '@ecf/fiscal-core';
import { createTaxauthClient, TaxauthError } from './index.ts';

type TRecorded = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
};

const recorded: TRecorded[] = [];
let tokenBody = '';
let server: Server;
let baseUrl = '';
let certificate: TSigningCertificate;

const SEED =
  '<?xml version="1.0" encoding="utf-8"?><SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
  '<valor>c2VtaWxsYQ==</valor><fecha>2026-04-01T10:50:14.9682218-04:00</fecha></SemillaModel>';

before(async () => {
  const generated = createTestCertificate({ rnc: '131880738', commonName: 'Firmante de prueba' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate did not load');
  certificate = loaded.data;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      recorded.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body: Buffer.concat(chunks),
      });
      if (request.url?.endsWith('/semilla')) {
        response.writeHead(200, { 'content-type': 'application/xml' }).end(SEED);
      } else if (request.url?.endsWith('/validarsemilla')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(tokenBody);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

function client() {
  return createTaxauthClient({
    environment: 'TesteCF',
    baseUrls: { ecf: baseUrl, fc: baseUrl, status: baseUrl },
    timeoutMs: 5000,
  });
}

test('the signed seed goes up as one multipart part named xml with a real Content-Length, no chunking', async () => {
  recorded.length = 0;
  tokenBody = JSON.stringify({
    token: 'tok-1',
    expira: '2026-04-01T15:00:00Z',
    expedido: '2026-04-01T14:00:00Z',
  });
  const token = await client().forTaxpayer({ cacheKey: 'tenant-a', certificate }).authenticate();
  assert.equal(token.token, 'tok-1');
  assert.equal(token.expiresAt.getTime() - token.refreshAt.getTime(), 300_000);

  const [seed, validate] = recorded;
  assert.ok(seed !== undefined && validate !== undefined);
  assert.equal(seed.method, 'GET');
  assert.equal(seed.url, '/testecf/autenticacion/api/autenticacion/semilla');
  assert.equal(validate.method, 'POST');
  assert.equal(validate.url, '/testecf/autenticacion/api/autenticacion/validarsemilla');
  assert.equal(validate.headers['content-length'], String(validate.body.length));
  assert.equal(validate.headers['transfer-encoding'], undefined);
  assert.equal(validate.headers['accept'], 'application/json');
  const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(validate.headers['content-type'] ?? '')?.[1];
  assert.ok(boundary !== undefined);
  const text = validate.body.toString('utf8');
  assert.match(
    text,
    /^--.+\r\nContent-Disposition: form-data; name="xml"; filename="semilla\.xml"\r\nContent-Type: text\/xml/,
  );
  assert.match(
    text,
    /<SemillaModel[^>]*><valor>c2VtaWxsYQ==<\/valor><fecha>[^<]+<\/fecha><Signature xmlns="http:\/\/www.w3.org\/2000\/09\/xmldsig#">/,
  );
  assert.ok(text.endsWith(`\r\n--${boundary}--\r\n`));
});

test('a 2xx token answer that is not JSON is a transient auth_unavailable carrying the body verbatim', async () => {
  tokenBody = '<html>Service Unavailable</html>';
  const failure = await client()
    .forTaxpayer({ cacheKey: 'tenant-b', certificate })
    .authenticate()
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(failure instanceof TaxauthError);
  assert.equal(failure.kind, 'transient');
  assert.equal(failure.reason, 'auth_unavailable');
  assert.equal(failure.detail, 'malformed_answer');
  assert.equal(failure.body, '<html>Service Unavailable</html>');
});

test('a 2xx service answer that is not JSON is a transient malformed_answer with the outcome unknown', async () => {
  tokenBody = JSON.stringify({
    token: 'tok-2',
    expira: '2026-04-01T15:00:00Z',
    expedido: '2026-04-01T14:00:00Z',
  });
  recorded.length = 0;
  const taxpayer = client().forTaxpayer({ cacheKey: 'tenant-c', certificate });
  const failure = await taxpayer.getResult({ trackId: 'abc' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(failure instanceof TaxauthError);
  assert.equal(failure.reason, 'malformed_answer');
  assert.equal(failure.kind, 'transient');
  assert.equal(failure.isOutcomeUnknown, true);
  assert.equal(failure.body, '<html>maintenance</html>');
  const query = recorded.find((request) => request.url.includes('consultaresultado'));
  assert.equal(query?.url, '/testecf/consultaresultado/api/consultas/estado?trackid=abc');
  assert.equal(query?.headers['authorization'], 'bearer tok-2');
  assert.equal(query?.headers['accept'], 'application/json');
});

test('connection refused is transient "connection" and known not to have reached the server', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const failure = await createTaxauthClient({
    environment: 'eCF',
    baseUrls: { ecf: url, fc: url, status: url },
    timeoutMs: 2000,
  })
    .findServiceStatuses()
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(failure instanceof TaxauthError);
  assert.deepEqual(
    [failure.kind, failure.reason, failure.detail, failure.isOutcomeUnknown],
    ['transient', 'connection', 'ECONNREFUSED', false],
  );
});
