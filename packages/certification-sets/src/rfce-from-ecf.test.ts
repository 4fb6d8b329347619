import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import {
  buildRfceXml,
  createTestCertificate,
  loadCertificate,
  readEcfXml,
  signEcfDocument,
  signXml,
  validateSubmission,
  verifyXmlSignature,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { readCertificationWorkbook } from './read-certification-workbook.ts';
import { workbookRowToEcf } from './workbook-to-ecf.ts';
import type { TWorkbookRow } from './workbook-types.ts';

/**
 * The tax authority compares each RFCE it receives with the `RFCE` sheet of the set, literally. The
 * service builds that RFCE from the signed E32 (the same eNCF's `ECF` row), so every E32 below
 * RD$250,000 of the set, issued as the service issues it, must summarize to its RFCE row exactly.
 */
const ECF_SET = readFileSync(new URL('../model/132641566-set-pruebas-ecf.xlsx', import.meta.url));
/** Sending day: after the set's issue dates; the expired sequences only warn. */
const NOW = new Date('2026-11-21T15:00:00Z');

let validators: TXsdValidators;
let certificate: TSigningCertificate;
let ecfRows: readonly TWorkbookRow[];
let rfceRows: readonly TWorkbookRow[];
let issuerRnc: string;

before(async () => {
  validators = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
  const read = await readCertificationWorkbook({ content: ECF_SET });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error(JSON.stringify(read));
  ({ issuerRnc, ecf: ecfRows, rfce: rfceRows } = read.workbook);
  const generated = createTestCertificate({ rnc: issuerRnc, commonName: 'Certificacion Prueba' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(JSON.stringify(loaded.issues));
  certificate = loaded.data;
});
after(() => validators.dispose());

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const HEADER_ELEMENTS: Record<string, string> = { ENCF: 'eNCF' };

/** `Element=text` of every cell of an RFCE row, as the RFCE XML must carry it. */
function expectedLeaves(row: TWorkbookRow, securityCode: string): string[] {
  const cells = Object.entries(row.values)
    .filter(([column]) => column !== 'CasoPrueba')
    .map(([column, value]) => {
      const base = column.trimEnd().replace(/\[.*$/, '');
      return `${HEADER_ELEMENTS[base] ?? base}=${value.replace(/[&<>]/g, (character) => ESCAPES[character] ?? character)}`;
    });
  // The sheet leaves CodigoSeguridadeCF empty (`#e`) because the sender computes it: the signed E32's code.
  assert.ok(!('CodigoSeguridadeCF' in row.values), `row ${row.row}: the sheet gives CodigoSeguridadeCF`);
  return [...cells, `CodigoSeguridadeCF=${securityCode}`].sort();
}

/** `Element=text` of every leaf of an RFCE, its signature left out. */
function leavesOf(xml: string): string[] {
  const body = xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
  return [...body.matchAll(/<([A-Za-z0-9]+)>([^<]*)<\/\1>/g)]
    .map((match) => `${match[1]}=${match[2]}`)
    .sort();
}

test('every RFCE row is the summary the service builds from the signed E32 of its ECF row, leaf by leaf', async () => {
  assert.equal(rfceRows.length, 4);
  for (const rfceRow of rfceRows) {
    const encf = rfceRow.values['ENCF'];
    const label = `RFCE row ${rfceRow.row} ${encf}`;
    const ecfRow = ecfRows.find((row) => row.values['ENCF'] === encf);
    assert.ok(ecfRow !== undefined, `${label}: no ECF row with that eNCF`);
    assert.equal(ecfRow.values['TipoeCF'], '32', label);

    const mapped = workbookRowToEcf(ecfRow);
    assert.ok(mapped.ok, `${label}: ${JSON.stringify(!mapped.ok && mapped.errors)}`);
    const validated = await validateSubmission(JSON.stringify(mapped.document), {
      now: NOW,
      account: {
        rnc: issuerRnc,
        legalName: ecfRow.values['RazonSocialEmisor'] ?? '',
        deferredSendAuthorized: false,
      },
    });
    assert.ok(validated.success, `${label}: ${JSON.stringify(!validated.success && validated.errors)}`);
    assert.deepEqual(
      validated.data.warnings.filter((warning) => warning.code === 'SQUARING_ABOVE_TAXAUTH_TOLERANCE'),
      [],
      label,
    );
    const signed = signEcfDocument(validated.data.document, certificate, NOW);
    assert.ok(signed.success, `${label}: ${JSON.stringify(!signed.success && signed.issues)}`);

    // As the transmission does: the tree read back from the signed bytes, the signed E32's security
    // code, the RFCE signed on its own. The transmission's reader (`readSignedEcfTree`) lives in
    // @ecf/services, which depends on this package, so the test reads with fiscal-core's
    // `readEcfXml`; both give the elements and text of the signed XML, which is all the builder reads
    // (it takes a repeated element as a list or as one object alike).
    const tree = readEcfXml(signed.data.xml);
    assert.ok(tree !== undefined, `${label}: the signed E32 reads back`);
    const rfce = buildRfceXml(tree, { securityCode: signed.data.securityCode });
    assert.ok(rfce.success, `${label}: ${JSON.stringify(!rfce.success && rfce.issues)}`);
    const signedRfce = signXml(rfce.data, certificate).xml;
    const checked = validators.validateXml(signedRfce);
    assert.ok(checked.success, `${label}: XSD ${JSON.stringify(!checked.success && checked.issues)}`);
    assert.equal(checked.data.kind, 'RFCE');
    assert.ok(verifyXmlSignature(signedRfce).valid, label);

    // The tax authority compares every field with the row literally: nothing added, dropped or reformatted.
    assert.deepEqual(leavesOf(signedRfce), expectedLeaves(rfceRow, signed.data.securityCode), label);
  }
});
