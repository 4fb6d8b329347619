/**
 * The reception phase of bench/hostile/run.ts (issue 25): the documents API and the reception
 * process as real processes on a fresh database (the API with RECEPTION_URL, as the development
 * stack runs them), the API's `/healthz` probed every PROBE_INTERVAL_MS and its memory read from
 * /proc, first idle, then while SENDERS senders flood reception with 2 MB deliveries (one realistic
 * signed e-CF naming the seeded tenant as buyer, padded with 250,000 extra elements), sent
 *   direct     to the reception process (production: the load balancer routes /fe there), and
 *   via API    to the API's /fe, which streams them to the reception process (compatibility).
 * The reception process's per-address limits (rate, CPU budget) are raised so every delivery is read
 * and judged (the worst case: many senders from many addresses). Loopback only, bounded by
 * BENCH_SECONDS per phase.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabaseClient, seedTenant } from '@ecf/db';
import { createTestDatabase, freePort, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { createTestCertificate, loadCertificate, signXml } from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { percentile, processCpuSeconds } from '../shared/measures.ts';

const API_DIRECTORY = fileURLToPath(new URL('../../apps/api/', import.meta.url));
/** The reception routes' body limit (apps/api routes/reception.ts). */
const RECEPTION_LIMIT_BYTES = 2 * 1024 * 1024;
const EXTRA_ELEMENTS = 250_000;
const DELIVERY_PATH = '/TesteCF/fe/recepcion/api/ecf';
const BOUNDARY = '----ecfHostileReception';

type TProcess = { url: string; child: ChildProcess; pid: number; stop: () => Promise<void> };

function get(url: string, agent?: Agent): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sending = request(
      { host: target.hostname, port: target.port, path: target.pathname, agent: agent ?? false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sending.on('error', reject);
    sending.end();
  });
}

async function startProcess(script: string, env: Record<string, string>, url: string): Promise<TProcess> {
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, script], {
    cwd: API_DIRECTORY,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited early:\n${errors}`);
    if ((await get(`${url}/healthz`).catch(() => 0)) === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} never answered:\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    child,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** A realistic e-CF to `buyerRnc`, padded with {@link EXTRA_ELEMENTS} elements, signed: multipart. */
function hostileDelivery(buyerRnc: string): Buffer {
  const supplierRnc = '401234567';
  const generated = createTestCertificate({ rnc: supplierRnc, commonName: 'Proveedor hostil' });
  const certificate = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!certificate.success) throw new Error('test certificate');
  const items = Array.from(
    { length: 20 },
    (_, index) =>
      `<Item><NumeroLinea>${index + 1}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
      `<NombreItem>Artículo de ferretería ${index + 1}</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
      '<CantidadItem>1</CantidadItem><PrecioUnitarioItem>5.00</PrecioUnitarioItem><MontoItem>5.00</MontoItem></Item>',
  ).join('');
  const padding = '<P>1</P>'.repeat(EXTRA_ELEMENTS);
  const xml =
    '<ECF><Encabezado><Version>1.0</Version>' +
    '<IdDoc><TipoeCF>31</TipoeCF><eNCF>E310000000777</eNCF><FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>' +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${supplierRnc}</RNCEmisor><RazonSocialEmisor>Proveedor de Prueba, S.R.L.</RazonSocialEmisor>` +
    '<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
    `<Comprador><RNCComprador>${buyerRnc}</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>100.00</MontoGravadoTotal><MontoGravadoI1>100.00</MontoGravadoI1><ITBIS1>18</ITBIS1>' +
    '<TotalITBIS>18.00</TotalITBIS><TotalITBIS1>18.00</TotalITBIS1><MontoTotal>118.00</MontoTotal></Totales></Encabezado>' +
    `<DetallesItems>${items}${padding}</DetallesItems>` +
    '<FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>';
  const signed = signXml(xml, certificate.data).xml;
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="xml"; filename="${supplierRnc}E310000000777.xml"\r\n` +
        'Content-Type: text/xml\r\n\r\n',
    ),
    Buffer.from(signed, 'utf8'),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  if (body.length > RECEPTION_LIMIT_BYTES) throw new Error(`delivery of ${body.length} bytes over the limit`);
  return body;
}

function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not permitted: the peak is then the process's lifetime peak
  }
}

/** The senders in a process of their own (senders.ts), so their writes never delay the probe. */
function startSenders(url: string, body: Buffer, senders: number) {
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'hostile-reception-')), 'delivery.multipart');
  writeFileSync(bodyFile, body);
  const child = spawn(
    process.execPath,
    [...NODE_TYPESCRIPT_FLAGS, new URL('./senders.ts', import.meta.url).pathname],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        HOSTILE_URL: url,
        HOSTILE_KEY: '',
        HOSTILE_BODY: bodyFile,
        HOSTILE_PATH: DELIVERY_PATH,
        HOSTILE_CONTENT_TYPE: `multipart/form-data; boundary=${BOUNDARY}`,
        SENDERS: String(senders),
      },
    },
  );
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  return {
    stop: () =>
      new Promise<Record<string, number>>((resolve) => {
        child.once('exit', () => {
          rmSync(dirname(bodyFile), { recursive: true, force: true });
          resolve(JSON.parse(Buffer.concat(output).toString('utf8') || '{}') as Record<string, number>);
        });
        child.stdin.end();
      }),
  };
}

export type TReceptionRow = {
  name: string;
  probes: number;
  p50: number;
  p99: number;
  max: number;
  apiRssMiB: number;
  apiPeakRssMiB: number;
  apiCpuSeconds: number;
  receptionPeakRssMiB: number;
  answers: Record<string, number>;
};

async function phase(
  name: string,
  api: TProcess,
  reception: TProcess,
  options: {
    seconds: number;
    probeIntervalMs: number;
    flood?: { url: string; body: Buffer; senders: number };
  },
): Promise<TReceptionRow> {
  resetPeak(api.pid);
  resetPeak(reception.pid);
  const cpuBefore = processCpuSeconds(api.pid);
  const senders = options.flood
    ? startSenders(options.flood.url, options.flood.body, options.flood.senders)
    : null;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const deadline = Date.now() + options.seconds * 1000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await get(`${api.url}/healthz`, agent);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, options.probeIntervalMs));
  }
  const apiRssMiB = memoryMiB(api.pid, 'VmRSS');
  const answers = senders ? await senders.stop() : {};
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    name,
    probes: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    apiRssMiB,
    apiPeakRssMiB: memoryMiB(api.pid, 'VmHWM'),
    apiCpuSeconds: processCpuSeconds(api.pid) - cpuBefore,
    receptionPeakRssMiB: memoryMiB(reception.pid, 'VmHWM'),
    answers,
  };
}

/** Runs the reception phase and prints its table; the goals of issue 25 are checked on the flood rows. */
export async function runReceptionBench(options: {
  seconds: number;
  senders: number;
  probeIntervalMs: number;
}): Promise<TReceptionRow[]> {
  const testDatabase = await createTestDatabase();
  const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 2 });
  const masterKey = randomBytes(32).toString('base64');
  const processes: TProcess[] = [];
  try {
    const buyer = await seedTenant(database, {
      rnc: '131880738',
      legalName: 'Distribuidora Caribe Digital SRL',
    });
    const generated = createTestCertificate({ rnc: buyer.rnc, commonName: 'Firmante comprador' });
    await storeTenantCertificate({
      database,
      keyring: createCertificateKeyring({ currentKey: masterKey }),
      tenantId: buyer.id,
      p12: generated.p12,
      password: generated.password,
    });
    const body = hostileDelivery(buyer.rnc);
    const [apiPort, receptionPort] = await Promise.all([freePort(), freePort()]);
    const secret = randomBytes(32).toString('base64url');
    const common = {
      DATABASE_URL: testDatabase.url,
      LOG_LEVEL: 'warn',
      CERTIFICATE_MASTER_KEY: masterKey,
      RECEPTION_PROXY_SECRET: secret,
    };
    const receptionUrl = `http://127.0.0.1:${receptionPort}`;
    const reception = await startProcess(
      'src/reception-main.ts',
      {
        ...common,
        RECEPTION_PORT: String(receptionPort),
        // Every delivery is read and judged (the worst case): no per-address refusal.
        RECEPTION_RATE_LIMIT_PER_MINUTE: '1000000000',
        RECEPTION_CPU_BUDGET_MS_PER_MINUTE: '1000000000',
        RECEPTION_CPU_BUDGET_BURST_MS: '1000000000',
      },
      receptionUrl,
    );
    processes.push(reception);
    const api = await startProcess(
      'src/main.ts',
      { ...common, API_PORT: String(apiPort), RECEPTION_URL: receptionUrl },
      `http://127.0.0.1:${apiPort}`,
    );
    processes.push(api);

    const short = { ...options, seconds: Math.min(3, options.seconds) };
    await phase('warm-up', api, reception, { ...short, flood: { url: api.url, body, senders: 1 } });
    const rows = [
      await phase('idle (baseline)', api, reception, options),
      await phase('flood, direct to reception', api, reception, {
        ...options,
        flood: { url: reception.url, body, senders: options.senders },
      }),
      await phase('flood, through the API /fe', api, reception, {
        ...options,
        flood: { url: api.url, body, senders: options.senders },
      }),
    ];
    const idle = rows[0]!;
    console.log(
      `\nReception flood: ${options.seconds} s per phase, ${options.senders} senders of ${(body.length / 1e6).toFixed(2)} MB` +
        ` deliveries (${EXTRA_ELEMENTS.toLocaleString('en')} extra elements), the documents API's /healthz every ${options.probeIntervalMs} ms\n`,
    );
    console.log(
      'phase'.padEnd(30),
      'probes'.padStart(7),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'max ms'.padStart(8),
      'p99 x idle'.padStart(11),
      'API RSS'.padStart(8),
      'x idle'.padStart(7),
      'API peak'.padStart(9),
      'API CPU s'.padStart(10),
      'recep. peak'.padStart(12),
      '  answers',
    );
    for (const row of rows) {
      console.log(
        row.name.padEnd(30),
        String(row.probes).padStart(7),
        row.p50.toFixed(1).padStart(8),
        row.p99.toFixed(1).padStart(8),
        row.max.toFixed(1).padStart(8),
        (row.p99 / idle.p99).toFixed(1).padStart(11),
        row.apiRssMiB.toFixed(0).padStart(8),
        (row.apiRssMiB / idle.apiRssMiB).toFixed(2).padStart(7),
        row.apiPeakRssMiB.toFixed(0).padStart(9),
        row.apiCpuSeconds.toFixed(2).padStart(10),
        row.receptionPeakRssMiB.toFixed(0).padStart(12),
        ' ',
        JSON.stringify(row.answers),
      );
    }
    console.log('(RSS in MiB; API RSS at the end of the phase, peaks since the phase began)\n');
    for (const row of rows.slice(1)) {
      const met = row.p99 < 100 && row.apiPeakRssMiB < 600;
      console.log(
        `${met ? 'MET    ' : 'NOT MET'} ${row.name}: API /healthz p99 ${row.p99.toFixed(1)} ms (< 100) and peak RSS ${row.apiPeakRssMiB.toFixed(0)} MiB (< 600)`,
      );
    }
    return rows;
  } finally {
    for (const running of processes.reverse()) await running.stop();
    await database.$disconnect();
    await testDatabase.drop();
  }
}
