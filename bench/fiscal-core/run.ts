/**
 * fiscal-core throughput benchmark: signing, XSD validation and the issuance pipeline (validate →
 * build → sign → XSD) for a 10-line and a 1,000-line e-CF 31, against the raw RSA-2048 signing
 * rate of the same key.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/fiscal-core/run.ts
 * Optional: BENCH_SECONDS (window per measurement, default 2), BENCH_ROUNDS (default 8).
 *
 * The goals are measured in interleaved rounds: each round measures raw RSA, the 10-line pipeline
 * and the 1,000-line pipeline one after the other (the order rotates), so that a machine that
 * slows down or speeds up moves baseline and subject together; the ratio is taken within each
 * round and its median printed with its spread (the largest distance of a round from the median).
 * Two runs agree within about ±5 % when the spread is under that.
 *
 * Goals (issue 29): the 10-line pipeline at >= 1/2 of the raw RSA-2048 signing rate, the 1,000-line
 * pipeline at >= 100 documents/s.
 */
import { sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { SignedXml } from 'xml-crypto';
import {
  buildEcfXml,
  createXsdValidators,
  element,
  leaf,
  loadCertificate,
  signXml,
  validateSubmission,
  writeXml,
} from '@ecf/fiscal-core';
import type { TEcfDocument, TEcfTree, TXmlNode } from '@ecf/fiscal-core';
import { medianAndSpread, reportFigures } from '../shared/figures.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '2');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '8');
const ROOT = new URL('../../', import.meta.url);
const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const GOLDEN_P12 = new URL('packages/fiscal-core/test/golden/test-certificate.p12', ROOT);

// ---------------------------------------------------------------------------------------------
// Documents

/** The e-CF 31 as the internal model tree (what validation produces and the XML builder consumes). */
function sampleTree(lines: number): TEcfDocument {
  const items: TEcfTree[] = [];
  for (let line = 1; line <= lines; line += 1) {
    items.push({
      NumeroLinea: String(line),
      IndicadorFacturacion: '1',
      NombreItem: `Artículo ${line} & servicio <A>`,
      IndicadorBienoServicio: '1',
      CantidadItem: '1',
      PrecioUnitarioItem: '100.00',
      MontoItem: '100.00',
    });
  }
  const gravado = (lines * 100).toFixed(2);
  const itbis = (lines * 18).toFixed(2);
  return {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: {
          TipoeCF: '31',
          eNCF: 'E310000000001',
          FechaVencimientoSecuencia: '31-12-2027',
          IndicadorMontoGravado: '0',
          TipoIngresos: '01',
          TipoPago: '1',
        },
        Emisor: {
          RNCEmisor: '131880738',
          RazonSocialEmisor: 'Empresa de Prueba, S.R.L.',
          DireccionEmisor: 'Av. Winston Churchill 1099, Santo Domingo',
          FechaEmision: '01-04-2026',
        },
        Comprador: { RNCComprador: '101672919', RazonSocialComprador: 'Cliente & Asociados, S.A.' },
        Totales: {
          MontoGravadoTotal: gravado,
          MontoGravadoI1: gravado,
          ITBIS1: '18',
          TotalITBIS: itbis,
          TotalITBIS1: itbis,
          MontoTotal: (lines * 118).toFixed(2),
        },
      },
      DetallesItems: { Item: items },
      FechaHoraFirma: '01-04-2026 10:15:00',
    },
  };
}

/** The same document written with the canonical writer alone (independent of the e-CF builder). */
function sampleXml(lines: number): string {
  const tree = sampleTree(lines).ECF;
  const toNode = (name: string, value: unknown): TXmlNode | undefined => {
    if (typeof value === 'string') return leaf(name, value);
    const record = value as Record<string, unknown>;
    const children: Array<TXmlNode | undefined> = [];
    for (const [childName, childValue] of Object.entries(record)) {
      if (Array.isArray(childValue)) for (const entry of childValue) children.push(toNode(childName, entry));
      else children.push(toNode(childName, childValue));
    }
    return element(name, ...children);
  };
  return writeXml(toNode('ECF', tree) as TXmlNode);
}

// ---------------------------------------------------------------------------------------------
// Measurement

type TMeasurement = { perSecond: number; iterations: number };

function measure(operation: () => unknown): TMeasurement {
  // Warm-up: JIT and caches, a tenth of the measuring time.
  const warmUntil = performance.now() + SECONDS * 100;
  while (performance.now() < warmUntil) operation();
  let iterations = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  let now = start;
  while (now < end) {
    operation();
    iterations += 1;
    if ((iterations & 3) === 0 || iterations < 8) now = performance.now();
  }
  const elapsed = performance.now() - start;
  return { perSecond: (iterations * 1000) / elapsed, iterations };
}

async function measureAsync(operation: () => Promise<unknown>): Promise<TMeasurement> {
  const warmUntil = performance.now() + SECONDS * 100;
  while (performance.now() < warmUntil) await operation();
  let iterations = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) {
    await operation();
    iterations += 1;
  }
  return { perSecond: (iterations * 1000) / (performance.now() - start), iterations };
}

const format = (value: number): string => value.toFixed(value >= 100 ? 0 : 1).padStart(9);
function report(label: string, measurement: TMeasurement, rsaRate: number): void {
  console.log(
    `${label.padEnd(72)} ${format(measurement.perSecond)} docs/s   ${(measurement.perSecond / rsaRate).toFixed(3)} x raw RSA`,
  );
}

// ---------------------------------------------------------------------------------------------

const loaded = loadCertificate({ p12: readFileSync(GOLDEN_P12), password: 'ecf-golden-2036' });
if (!loaded.success)
  throw new Error(`certificate: ${loaded.issues.map((issue) => issue.message).join('; ')}`);
const certificate = loaded.data;

const schemas: Record<string, Uint8Array> = {};
for (const name of readdirSync(XSD_DIRECTORY))
  if (name.endsWith('.xsd')) schemas[name] = readFileSync(path.join(XSD_DIRECTORY, name));
const compileStart = performance.now();
const validatorsResult = createXsdValidators(schemas);
const compileMs = performance.now() - compileStart;
if (!validatorsResult.success)
  throw new Error(`xsd: ${validatorsResult.issues.map((issue) => issue.message).join('; ')}`);
const validators = validatorsResult.data;

const validationContext = {
  now: new Date('2026-04-01T14:20:00Z'),
  account: { rnc: '131880738', legalName: 'Empresa de Prueba, S.R.L.', deferredSendAuthorized: false },
};

const privateKeyPem = certificate.privateKey.export({ type: 'pkcs8', format: 'pem' });
function signWithXmlCrypto(xml: string): string {
  const signer = new SignedXml({
    privateKey: privateKeyPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
    getKeyInfoContent: () =>
      `<X509Data><X509Certificate>${certificate.certificateDerBase64}</X509Certificate></X509Data>`,
  });
  signer.addReference({
    xpath: '/*',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    uri: '',
    isEmptyUri: true,
  });
  signer.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return signer.getSignedXml();
}

console.log(
  `fiscal-core benchmark — Node ${process.version}, ${SECONDS}s per figure, XSD set compiled once in ${compileMs.toFixed(0)} ms (${validators.kinds.length} schemas)\n`,
);

// Raw RSA-2048 over a SignedInfo-sized message: the cost floor of any XMLDSig signer.
const signedInfoSized = Buffer.alloc(620, 0x61);
const rsa = measure(() => sign('sha256', signedInfoSized, certificate.privateKey));
console.log(`${'raw RSA-2048 crypto.sign (same key)'.padEnd(72)} ${format(rsa.perSecond)} signs/s\n`);

/** The whole pipeline on one document's JSON: validate → build → sign → XSD. */
async function pipelineOnce(json: string): Promise<void> {
  const validated = await validateSubmission(json, validationContext);
  if (!validated.success)
    throw new Error(`validateSubmission: ${JSON.stringify(validated.errors.slice(0, 3))}`);
  const built = buildEcfXml(validated.data.document);
  if (!built.success) throw new Error(`buildEcfXml: ${JSON.stringify(built.issues.slice(0, 2))}`);
  // As the worker does: the kind is the document's type, known without reading it back.
  const checked = validators.validateXml(signXml(built.data, certificate).xml, 'ECF31');
  if (!checked.success) throw new Error(`XSD: ${JSON.stringify(checked.issues.slice(0, 2))}`);
}

const bodies = new Map<number, string>();
for (const lines of [10, 1000]) {
  const xml = sampleXml(lines);
  const signedXml = signXml(xml, certificate).xml;
  const sanity = validators.validateXml(signedXml);
  if (!sanity.success)
    throw new Error(`sample e-CF is not XSD-valid: ${JSON.stringify(sanity.issues.slice(0, 3))}`);
  const json = JSON.stringify(sampleTree(lines));
  bodies.set(lines, json);
  await pipelineOnce(json);
  console.log(
    `e-CF 31, ${lines} lines (${(Buffer.byteLength(xml) / 1024).toFixed(1)} KiB unsigned), stages alone`,
  );
  report(
    `  sign (signXml, node:crypto)`,
    measure(() => signXml(xml, certificate)),
    rsa.perSecond,
  );
  report(
    `  sign (xml-crypto peer, same recipe)`,
    measure(() => signWithXmlCrypto(xml)),
    rsa.perSecond,
  );
  report(
    `  XSD validate (libxml2-wasm, signed document)`,
    measure(() => validators.validateXml(signedXml)),
    rsa.perSecond,
  );
  report(
    `  validateSubmission`,
    await measureAsync(() => validateSubmission(json, validationContext)),
    rsa.perSecond,
  );
  console.log('');
}

// The goals: raw RSA and both pipelines in interleaved rounds.
const subjects = [
  { name: 'raw RSA-2048', run: async () => sign('sha256', signedInfoSized, certificate.privateKey) },
  { name: 'pipeline, 10 lines', run: () => pipelineOnce(bodies.get(10) ?? '') },
  { name: 'pipeline, 1,000 lines', run: () => pipelineOnce(bodies.get(1000) ?? '') },
];
const rates = subjects.map(() => [] as number[]);
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const rateOf: number[] = [];
  for (let step = 0; step < subjects.length; step += 1) {
    const index = (round + step) % subjects.length;
    const subject = subjects[index];
    if (subject === undefined) continue;
    rateOf[index] = (await measureAsync(subject.run)).perSecond;
    rates[index]?.push(rateOf[index] ?? 0);
  }
  ratios.push((rateOf[1] ?? 0) / (rateOf[0] ?? 1));
}
console.log(`interleaved: ${ROUNDS} rounds of ${SECONDS} s per figure (median, ± spread)`);
const summaries = subjects.map((subject, index) => {
  const summary = medianAndSpread(rates[index] ?? []);
  console.log(
    `  ${subject.name.padEnd(24)} ${summary.median.toFixed(1).padStart(9)} /s   ± ${(summary.spread * 100).toFixed(1)} %`,
  );
  return summary;
});
const ratio = medianAndSpread(ratios);
const [rsaRate, pipeline10, pipeline1000] = summaries;
console.log(
  `  10-line pipeline / raw RSA ${ratio.median.toFixed(3).padStart(9)} x    ± ${(ratio.spread * 100).toFixed(1)} %\n`,
);
console.log(
  `${ratio.median >= 0.5 ? 'MET    ' : 'NOT MET'} 10-line pipeline >= 0.5 x raw RSA-2048 (${ratio.median.toFixed(3)} x)`,
);
console.log(
  `${(pipeline1000?.median ?? 0) >= 100 ? 'MET    ' : 'NOT MET'} 1,000-line pipeline >= 100 docs/s (${pipeline1000?.median.toFixed(1)} docs/s)`,
);
reportFigures('fiscal-core', {
  rsaPerSecond: rsaRate?.median ?? Number.NaN,
  pipeline10PerSecond: pipeline10?.median ?? Number.NaN,
  pipeline10Ratio: ratio.median,
  pipeline10RatioSpread: ratio.spread,
  pipeline1000PerSecond: pipeline1000?.median ?? Number.NaN,
  pipeline1000Spread: pipeline1000?.spread ?? Number.NaN,
});
validators.dispose();
