/**
 * Printed-representation (PDF) benchmark: PDFs per second, size and CPU per PDF for a 10-line and a
 * 200-line e-CF 31, rendered from the tree read back from the signed XML (as the PDF endpoint does).
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/pdf/run.ts
 * Optional: BENCH_SECONDS=5 (time per measurement, default 3).
 *
 * Goals (issue 29): a 10-line PDF in <= 25 ms of CPU, a 200-line one in <= 200 ms.
 */
import {
  createTestCertificate,
  loadCertificate,
  readEcfXml,
  signEcfDocument,
  timbreUrlOf,
  validateSubmission,
} from '@ecf/fiscal-core';
import type { TValidationContext } from '@ecf/fiscal-core';
import { renderPrintedRepresentation } from '@ecf/printing';
import type { TPrintInput } from '@ecf/printing';
import { reportFigures } from '../shared/figures.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '3');
const NOW = new Date('2026-11-21T15:00:00Z');
const GOAL_CPU_MS_10_LINES = 25;
const GOAL_CPU_MS_200_LINES = 200;

const context: TValidationContext = {
  now: NOW,
  account: { rnc: '131880738', legalName: 'Distribuidora Caribe Digital SRL', deferredSendAuthorized: false },
};

function body(lines: number): Record<string, unknown> {
  return {
    type: 'E31',
    encf: 'E310000000101',
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-11-21',
    issuer: {
      rnc: '131880738',
      legalName: 'Distribuidora Caribe Digital SRL',
      tradeName: 'Caribe Digital',
      address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
      phone: ['809-555-0101', '809-555-0102'],
    },
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'credit',
    dueDate: '2026-12-21',
    incomeType: '01',
    lines: Array.from({ length: lines }, (_, index) => ({
      name: `Artículo de ferretería número ${index + 1}`,
      quantity: 1 + (index % 5),
      unitPrice: `${100 + ((index * 37) % 900)}.${String((index * 13) % 100).padStart(2, '0')}`,
      itbisRate: index % 7 === 6 ? 'exempt' : 18,
      itemKind: 'good',
    })),
  };
}

async function printInput(lines: number): Promise<TPrintInput> {
  const generated = createTestCertificate({ rnc: '131880738', commonName: 'PDF Bench' });
  const certificate = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!certificate.success) throw new Error(JSON.stringify(certificate.issues));
  const validated = await validateSubmission(JSON.stringify(body(lines)), context);
  if (!validated.success) throw new Error(JSON.stringify(validated.errors));
  const signed = signEcfDocument(validated.data.document, certificate.data, NOW);
  if (!signed.success) throw new Error(JSON.stringify(signed.issues));
  const document = readEcfXml(signed.data.xml);
  if (document === undefined) throw new Error('signed XML does not read back');
  return {
    document,
    securityCode: signed.data.securityCode,
    signedAt: signed.data.signedAt,
    qrUrl: timbreUrlOf(document, signed.data, 'eCF'),
    environment: 'eCF',
  };
}

type TResult = {
  label: string;
  perSecond: number;
  cpuMs: number;
  wallMs: number;
  bytes: number;
  renders: number;
};

async function measure(label: string, input: TPrintInput): Promise<TResult> {
  // Warm-up: JIT, font metrics, the QR cache.
  let bytes = 0;
  for (let index = 0; index < 5; index += 1) bytes = (await renderPrintedRepresentation(input)).length;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let renders = 0;
  while (performance.now() - start < SECONDS * 1000 || renders < 10) {
    await renderPrintedRepresentation(input);
    renders += 1;
  }
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000 / renders;
  return { label, perSecond: (renders * 1000) / wallMs, cpuMs, wallMs: wallMs / renders, bytes, renders };
}

const results = [
  await measure('10 lines', await printInput(10)),
  await measure('200 lines', await printInput(200)),
];
console.log(`Node ${process.version}, ${SECONDS} s per measurement, one render at a time`);
console.table(
  results.map((result) => ({
    document: result.label,
    'PDFs/s': result.perSecond.toFixed(1),
    'CPU ms/PDF': result.cpuMs.toFixed(1),
    'wall ms/PDF': result.wallMs.toFixed(1),
    bytes: result.bytes,
    renders: result.renders,
  })),
);
const [tenLines, twoHundredLines] = results;
for (const [result, goal] of [
  [tenLines, GOAL_CPU_MS_10_LINES],
  [twoHundredLines, GOAL_CPU_MS_200_LINES],
] as const) {
  if (result === undefined) continue;
  console.log(
    `${result.cpuMs <= goal ? 'MET    ' : 'NOT MET'} ${result.label} PDF <= ${goal} ms of CPU (${result.cpuMs.toFixed(1)} ms)`,
  );
}
reportFigures('pdf', {
  cpuMs10Lines: tenLines?.cpuMs ?? Number.NaN,
  cpuMs200Lines: twoHundredLines?.cpuMs ?? Number.NaN,
  bytes10Lines: tenLines?.bytes ?? Number.NaN,
  bytes200Lines: twoHundredLines?.bytes ?? Number.NaN,
});
