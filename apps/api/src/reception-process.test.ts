// Reception in its own process (issue 25, "What to build" 3; ARCHITECTURE.md "Processes"): the real
// reception process (src/reception-main.ts) on its own port answers the reception routes; the API
// with RECEPTION_URL forwards /fe to it, streaming the body unread, with X-Forwarded-For believed only
// with the shared secret; a SIGKILLed reception process makes the API answer 503 ErrorResponse with
// Retry-After (never 500) while the rest of the API keeps working; a silent one is cut at the timeout.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
} from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { seedApiKey, seedTenant, sqlPoolOf } from '@ecf/db';
import { freePort, openTestDatabase, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { createTestCertificate, loadCertificate, signXml, type TSigningCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { buildXmlMultipart } from '@ecf/taxauth-client';
import { buildApp } from './app.ts';
import { readEnv } from './env.ts';
import { buildReceptionApp } from './reception-app.ts';
import { RECEPTION_PROXY_SECRET_HEADER } from './reception-proxy.ts';
import { LogCapture, TEST_XSD_DIRECTORY } from '../test/test-api.ts';

const API_DIRECTORY = fileURLToPath(new URL('..', import.meta.url));
const SECRET = randomBytes(32).toString('base64url');
const MASTER_KEY = randomBytes(32).toString('base64');
const SUPPLIER_RNC = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

type TAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTP exchange on a fresh connection (no keep-alive), the body sent whole. */
function exchange(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<TAnswer> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const sending = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    sending.on('error', reject);
    sending.end(options.body);
  });
}

function certificateOf(rnc: string): TSigningCertificate {
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  return loaded.data;
}
const supplierCertificate = certificateOf(SUPPLIER_RNC);

/** A signed e-CF from SUPPLIER_RNC to `buyerRnc`, as multipart (what a supplier's software sends). */
function delivery(buyerRnc: string): { encf: string; body: Buffer; contentType: string } {
  const encf = `E31${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
  const xml =
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>31</TipoeCF><eNCF>${encf}</eNCF><FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${SUPPLIER_RNC}</RNCEmisor><RazonSocialEmisor>Proveedor de Prueba, S.R.L.</RazonSocialEmisor>` +
    '<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
    `<Comprador><RNCComprador>${buyerRnc}</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>100.00</MontoGravadoTotal><MontoGravadoI1>100.00</MontoGravadoI1><ITBIS1>18</ITBIS1>' +
    '<TotalITBIS>18.00</TotalITBIS><TotalITBIS1>18.00</TotalITBIS1><MontoTotal>118.00</MontoTotal></Totales></Encabezado>' +
    '<DetallesItems><Item><NumeroLinea>1</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>' +
    '<NombreItem>Artículo</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio><CantidadItem>1</CantidadItem>' +
    '<PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item></DetallesItems>' +
    '<FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>';
  const multipart = buildXmlMultipart(signXml(xml, supplierCertificate).xml, `${SUPPLIER_RNC}${encf}.xml`);
  return { encf, body: multipart.body, contentType: multipart.contentType };
}

const estadoOf = (arecf: string) => /<Estado>(\d)<\/Estado>/.exec(arecf)?.[1];

/** Starts src/reception-main.ts as a real process and waits for its /healthz. */
async function startReceptionProcess(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, 'src/reception-main.ts'], {
    cwd: API_DIRECTORY,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      RECEPTION_PORT: String(port),
      RECEPTION_PROXY_SECRET: SECRET,
      CERTIFICATE_MASTER_KEY: MASTER_KEY,
      XSD_DIRECTORY: TEST_XSD_DIRECTORY,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`reception process exited early:\n${output}`);
    const status = await exchange(url, '/healthz')
      .then((answer) => answer.status)
      .catch(() => 0);
    if (status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`reception process never answered:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child };
}

async function listeningApi(
  databaseUrl: string,
  database: Awaited<ReturnType<typeof openTestDatabase>>['database'],
  overrides: Record<string, string>,
): Promise<{ app: FastifyInstance; url: string }> {
  const env = readEnv({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    XSD_DIRECTORY: TEST_XSD_DIRECTORY,
    RECEPTION_PROXY_SECRET: SECRET,
    ...overrides,
  });
  const app = await buildApp({ env, database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

describe('reception in its own process, the API forwarding /fe to it', () => {
  let testDatabase: Awaited<ReturnType<typeof openTestDatabase>>;
  let reception: { url: string; child: ChildProcess };
  let api: { app: FastifyInstance; url: string };
  let buyer: { id: string; rnc: string };
  let apiKey: string;

  const sourceAddressOf = async (encf: string) =>
    (
      await sqlPoolOf(testDatabase.database).query<{ source_address: string | null }>(
        'SELECT source_address FROM inbound_documents WHERE encf = $1',
        [encf],
      )
    ).rows[0]?.source_address;

  before(async () => {
    testDatabase = await openTestDatabase();
    buyer = await seedTenant(testDatabase.database);
    const generated = createTestCertificate({ rnc: buyer.rnc, commonName: 'Firmante comprador' });
    await storeTenantCertificate({
      database: testDatabase.database,
      keyring: createCertificateKeyring({ currentKey: MASTER_KEY }),
      tenantId: buyer.id,
      p12: generated.p12,
      password: generated.password,
    });
    ({ key: apiKey } = await seedApiKey(testDatabase.database, {
      tenantId: buyer.id,
      environment: 'TesteCF',
      scopes: ['ecf:read', 'status:read'],
    }));
    reception = await startReceptionProcess(testDatabase.url);
    api = await listeningApi(testDatabase.url, testDatabase.database, { RECEPTION_URL: reception.url });
  });

  after(async () => {
    await api?.app.close();
    if (reception?.child.exitCode === null) reception.child.kill('SIGKILL');
    await testDatabase?.close();
  });

  test('the reception process answers the reception routes on its own port', async () => {
    const health = await exchange(reception.url, '/healthz');
    assert.equal(health.status, 200);
    assert.equal((JSON.parse(health.body) as { service: string }).service, 'ecf-reception');
    const seed = await exchange(reception.url, '/TesteCF/fe/autenticacion/api/semilla');
    assert.equal(seed.status, 200, seed.body);
    assert.match(seed.body, /<SemillaModel[ >]/);
    const sent = delivery(buyer.rnc);
    const answer = await exchange(reception.url, '/TesteCF/fe/recepcion/api/ecf', {
      method: 'POST',
      headers: { 'content-type': sent.contentType, 'x-forwarded-for': '203.0.113.9' },
      body: sent.body,
    });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(estadoOf(answer.body), '0', answer.body);
    // Without the shared secret, a sender's X-Forwarded-For is not believed.
    assert.equal(await sourceAddressOf(sent.encf), '127.0.0.1');
    // The documents API's routes are not there.
    const documents = await exchange(reception.url, '/TesteCF/contingencia', {
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(documents.status, 404);
  });

  test('with the shared secret, the forwarded address is the one recorded', async () => {
    const sent = delivery(buyer.rnc);
    const answer = await exchange(reception.url, '/TesteCF/fe/recepcion/api/ecf', {
      method: 'POST',
      headers: {
        'content-type': sent.contentType,
        'x-forwarded-for': '198.51.100.4',
        [RECEPTION_PROXY_SECRET_HEADER]: SECRET,
      },
      body: sent.body,
    });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(await sourceAddressOf(sent.encf), '198.51.100.4');
    // A wrong secret is no secret.
    const other = delivery(buyer.rnc);
    await exchange(reception.url, '/TesteCF/fe/recepcion/api/ecf', {
      method: 'POST',
      headers: {
        'content-type': other.contentType,
        'x-forwarded-for': '198.51.100.5',
        [RECEPTION_PROXY_SECRET_HEADER]: `${SECRET.slice(0, -1)}x`,
      },
      body: other.body,
    });
    assert.equal(await sourceAddressOf(other.encf), '127.0.0.1');
  });

  test('a delivery through the API port reaches the reception process (any letter case, bare /fe)', async () => {
    const sent = delivery(buyer.rnc);
    const answer = await exchange(api.url, '/FE/Recepcion/Api/ECF', {
      method: 'POST',
      headers: {
        'content-type': sent.contentType,
        // A client's own X-Forwarded-For is replaced by the address the API sees.
        'x-forwarded-for': '192.0.2.77',
        'x-correlation-id': 'reception-proxy-test-1',
      },
      body: sent.body,
    });
    assert.equal(answer.status, 200, answer.body);
    assert.match(String(answer.headers['content-type']), /application\/xml/);
    assert.equal(estadoOf(answer.body), '0', answer.body);
    assert.equal(answer.headers['x-correlation-id'], 'reception-proxy-test-1');
    assert.equal(await sourceAddressOf(sent.encf), '127.0.0.1');
    // The reception process's refusals come back as they are (an ErrorResponse with its correlation id).
    const refused = await exchange(api.url, '/TesteCF/fe/recepcion/api/ecf', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'reception-proxy-test-2' },
      body: Buffer.from('{"xml":"<ECF/>"}'),
    });
    assert.equal(refused.status, 400, refused.body);
    const error = JSON.parse(refused.body) as { error: { code: string }; correlationId: string };
    assert.equal(error.error.code, 'UNSUPPORTED_CONTENT_TYPE');
    assert.equal(error.correlationId, 'reception-proxy-test-2');
  });

  test('a SIGKILLed reception process: /fe is 503 with Retry-After, never 500; the rest of the API works', async () => {
    const exited = new Promise((resolve) => reception.child.once('exit', resolve));
    reception.child.kill('SIGKILL');
    await exited;
    const sent = delivery(buyer.rnc);
    for (const [method, path, body] of [
      ['POST', '/TesteCF/fe/recepcion/api/ecf', sent.body],
      ['GET', '/fe/autenticacion/api/semilla', undefined],
    ] as const) {
      const answer = await exchange(api.url, path, {
        method,
        ...(body ? { headers: { 'content-type': sent.contentType }, body } : {}),
      });
      assert.equal(answer.status, 503, `${method} ${path}: ${answer.body}`);
      assert.equal(answer.headers['retry-after'], '5');
      const error = JSON.parse(answer.body) as {
        ok: boolean;
        error: { code: string; details: { reason: string } };
        correlationId: string;
      };
      assert.equal(error.ok, false);
      assert.equal(error.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(error.error.details.reason, 'reception_unavailable');
      assert.ok(error.correlationId);
    }
    assert.equal((await exchange(api.url, '/healthz')).status, 200);
    const contingency = await exchange(api.url, '/TesteCF/contingencia', {
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(contingency.status, 200, contingency.body);
  });
});

describe('the API forwarding /fe: streamed, bounded', () => {
  let testDatabase: Awaited<ReturnType<typeof openTestDatabase>>;
  before(async () => {
    testDatabase = await openTestDatabase();
  });
  after(async () => {
    await testDatabase?.close();
  });

  test('the body is streamed as it arrives (never buffered) and reaches the reception process byte for byte', async () => {
    let firstChunkSeen!: () => void;
    const firstChunk = new Promise<void>((resolve) => (firstChunkSeen = resolve));
    const seen: { headers?: IncomingHttpHeaders; url?: string; body: Buffer[] } = { body: [] };
    const upstream = createHttpServer((request, response) => {
      seen.headers = request.headers;
      seen.url = request.url;
      request.on('data', (chunk: Buffer) => {
        seen.body.push(chunk);
        firstChunkSeen();
      });
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', 'x-upstream': 'yes' });
        response.end('<ARECF/>');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const api = await listeningApi(testDatabase.url, testDatabase.database, { RECEPTION_URL: upstreamUrl });
    try {
      const url = new URL(api.url);
      const first = Buffer.from('--b\r\nContent-Disposition: form-data; name="xml"\r\n\r\n<ECF>');
      const second = Buffer.from('</ECF>\r\n--b--\r\n');
      const answer = await new Promise<TAnswer>((resolve, reject) => {
        const sending = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/CerteCF/fe/recepcion/api/ecf?x=1',
            agent: false,
            headers: {
              'content-type': 'multipart/form-data; boundary=b',
              'x-forwarded-for': '192.0.2.1',
              [RECEPTION_PROXY_SECRET_HEADER]: 'forged',
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          },
        );
        sending.on('error', reject);
        // Chunked: the second half is sent only once the reception side has the first.
        sending.write(first);
        void firstChunk.then(() => sending.end(second));
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body, '<ARECF/>');
      assert.equal(answer.headers['x-upstream'], 'yes');
      assert.deepEqual(Buffer.concat(seen.body), Buffer.concat([first, second]));
      assert.equal(seen.url, '/CerteCF/fe/recepcion/api/ecf?x=1');
      assert.equal(seen.headers?.['x-forwarded-for'], '127.0.0.1');
      assert.equal(seen.headers?.[RECEPTION_PROXY_SECRET_HEADER], SECRET);
      assert.equal(seen.headers?.['content-type'], 'multipart/form-data; boundary=b');
      assert.ok(seen.headers?.['x-correlation-id']);
      assert.equal(answer.headers['x-correlation-id'], seen.headers?.['x-correlation-id']);
    } finally {
      await api.app.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  test('a reception process that never answers is cut at RECEPTION_PROXY_TIMEOUT_MS: 503 reception_timeout', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createNetServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const api = await listeningApi(testDatabase.url, testDatabase.database, {
      RECEPTION_URL: silentUrl,
      RECEPTION_PROXY_TIMEOUT_MS: '400',
    });
    try {
      const started = Date.now();
      const answer = await exchange(api.url, '/TesteCF/fe/autenticacion/api/semilla');
      assert.ok(Date.now() - started < 5000);
      assert.equal(answer.status, 503, answer.body);
      assert.equal(answer.headers['retry-after'], '5');
      const error = JSON.parse(answer.body) as { error: { code: string; details: { reason: string } } };
      assert.equal(error.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(error.error.details.reason, 'reception_timeout');
    } finally {
      await api.app.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

test('the reception process never logs the shared secret, and its refusals are ErrorResponses', async () => {
  const testDatabase = await openTestDatabase();
  const logs = new LogCapture();
  const app = await buildReceptionApp({
    env: readEnv({
      DATABASE_URL: testDatabase.url,
      LOG_LEVEL: 'info',
      XSD_DIRECTORY: TEST_XSD_DIRECTORY,
      RECEPTION_PROXY_SECRET: SECRET,
    }),
    database: testDatabase.database,
    logDestination: logs,
  });
  try {
    const answer = await app.inject({
      method: 'POST',
      url: '/TesteCF/fe/recepcion/api/ecf',
      headers: {
        'content-type': 'text/plain',
        'x-forwarded-for': '198.51.100.9',
        [RECEPTION_PROXY_SECRET_HEADER]: SECRET,
      },
      payload: 'not multipart',
    });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(answer.json<{ error: { code: string } }>().error.code, 'UNSUPPORTED_CONTENT_TYPE');
    assert.ok(
      logs.text.includes(`"${RECEPTION_PROXY_SECRET_HEADER}":"[REDACTED]"`),
      'the header is logged redacted',
    );
    assert.ok(!logs.text.includes(SECRET), 'the secret is in the logs');
    // Only the reception routes and the operational ones are there.
    const other = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(other.statusCode, 404);
    assert.equal(other.json<{ error: { code: string } }>().error.code, 'ROUTE_NOT_FOUND');
  } finally {
    await app.close();
    await testDatabase.close();
  }
});
