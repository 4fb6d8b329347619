import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { diag, XmlDocument, XsdValidator } from 'libxml2-wasm';
import { loadCertificate } from '../signing/certificate.ts';
import { signXml } from '../signing/sign-xml.ts';
import { buildSampleEcf31 } from './sample-ecf-31.ts';
import { createXsdValidators, repairSchema, XSD_FILE_NAMES } from './xsd-validators.ts';
import type { TXsdValidators } from './xsd-validators.ts';

// The repository's copy of the published schemas (its digests are checked by @ecf/config's tests).
const XSD_DIRECTORY = new URL('../../../../config/xsd/', import.meta.url);
const schemas: Record<string, Uint8Array> = {};
for (const name of readdirSync(XSD_DIRECTORY))
  if (name.endsWith('.xsd')) schemas[name] = readFileSync(new URL(encodeURIComponent(name), XSD_DIRECTORY));

const loaded = loadCertificate({
  p12: readFileSync(new URL('../../test/golden/test-certificate.p12', import.meta.url)),
  password: 'ecf-golden-2036',
});
if (!loaded.success) throw new Error('golden certificate did not load');
const certificate = loaded.data;
const unsigned = buildSampleEcf31({ lines: 10 });
const signed = signXml(unsigned, certificate).xml;

describe('createXsdValidators / validateXml', () => {
  let validators: TXsdValidators;
  before(() => {
    diag.configure({ enabled: true });
    const result = createXsdValidators(schemas);
    assert.ok(result.success, JSON.stringify(!result.success && result.issues));
    validators = result.data;
  });
  after(() => {
    validators.dispose();
    diag.configure({ enabled: false });
  });

  test('all 15 published schemas compile (with the in-memory repairs), read as bytes with their BOM', () => {
    assert.equal(Object.keys(schemas).length, 15);
    assert.equal(validators.kinds.length, 15);
    assert.ok(schemas['e-CF 32 v.1.0.xsd']?.[0] === 0xef, 'the fixture really starts with a BOM');
    assert.ok(
      validators.validateXml(signed.replace('<TipoeCF>31', '<TipoeCF>32'), 'ECF32').success === false,
      'the BOM-prefixed e-CF 32 schema is in use',
    );
  });

  test('a signed e-CF 31 is valid and its kind is detected from TipoeCF', () => {
    assert.deepEqual(validators.validateXml(signed), { success: true, data: { kind: 'ECF31' } });
    assert.deepEqual(
      validators.validateXml(new TextEncoder().encode(`\uFEFF${signed}`)),
      { success: true, data: { kind: 'ECF31' } },
      'BOM in bytes',
    );
    assert.deepEqual(validators.validateXml(`\uFEFF<?xml version="1.0" encoding="utf-8"?>\n${signed}`), {
      success: true,
      data: { kind: 'ECF31' },
    });
  });

  test('every schema requires the trailing signature; { unsigned: true } validates before signing', () => {
    const result = validators.validateXml(unsigned);
    assert.ok(!result.success);
    assert.match(result.issues[0]?.message ?? '', /Missing child element/);
    assert.deepEqual(validators.validateXml(unsigned, undefined, { unsigned: true }), {
      success: true,
      data: { kind: 'ECF31' },
    });
  });

  test("invalid values give one XSD_VALIDATION_FAILED issue per libxml2 message, with path 'ECF' and the line", () => {
    const invalid = signed
      .replace('<TipoPago>1</TipoPago>', '<TipoPago>9</TipoPago>')
      .replace('<RNCEmisor>131880738', '<RNCEmisor>13188073X');
    const result = validators.validateXml(invalid);
    assert.ok(!result.success);
    assert.equal(result.issues.length, 2);
    for (const issue of result.issues) {
      assert.equal(issue.code, 'XSD_VALIDATION_FAILED');
      assert.equal(issue.path, 'ECF');
      assert.equal(issue.details?.line, 1);
    }
    assert.match(result.issues[0]?.message ?? '', /Element 'TipoPago'.*'9'/);
    assert.equal(result.issues[0]?.details?.xpath, '/ECF/Encabezado/IdDoc/TipoPago');
    assert.match(result.issues[1]?.message ?? '', /RNCEmisor/);
    const multiline = validators.validateXml(
      invalid.replace('<DetallesItems>', '\n\n<DetallesItems>').replace('<TipoPago>9', '<TipoPago>1'),
    );
    assert.ok(!multiline.success);
    assert.equal(multiline.issues[0]?.details?.line, 1);
    const onLine3 = validators.validateXml(
      signed
        .replace('<DetallesItems>', '\n\n<DetallesItems>')
        .replace('<CantidadItem>1</CantidadItem>', '<CantidadItem>-1</CantidadItem>'),
    );
    assert.ok(!onLine3.success);
    assert.equal(onLine3.issues[0]?.details?.line, 3);
  });

  test('the e-CF 31 quirk (type name with a leading space at line 476) is repaired: the type is enforced', () => {
    const result = validators.validateXml(
      signed
        .replace('<TipoPago>', '<IndicadorServicioTodoIncluido>7</IndicadorServicioTodoIncluido><TipoPago>')
        .replace('<TipoIngresos>01</TipoIngresos>', ''),
    );
    assert.ok(!result.success);
    const withIndicator = signed.replace(
      '</IndicadorMontoGravado>',
      '</IndicadorMontoGravado><IndicadorServicioTodoIncluido>1</IndicadorServicioTodoIncluido>',
    );
    assert.ok(validators.validateXml(withIndicator).success);
    const badIndicator = validators.validateXml(
      withIndicator.replace('<IndicadorServicioTodoIncluido>1', '<IndicadorServicioTodoIncluido>3'),
    );
    assert.ok(!badIndicator.success);
    assert.match(badIndicator.issues[0]?.message ?? '', /IndicadorServicioTodoIncluido/);
  });

  test('the published e-CF 31, RFCE and ACECF schemas do not compile in libxml2 without the repairs', () => {
    for (const name of ['e-CF 31 v.1.0.xsd', 'RFCE 32 v.1.0.xsd', 'ACECF v.1.0.xsd']) {
      const raw = new TextDecoder().decode(schemas[name]).replace(/^\uFEFF/, '');
      const document = XmlDocument.fromString(raw);
      try {
        assert.throws(
          () => XsdValidator.fromDoc(document).dispose(),
          /not a valid regular expression|does not resolve|is not a valid|invalid/i,
          name,
        );
      } finally {
        document.dispose();
      }
      const repaired = XmlDocument.fromString(repairSchema(raw));
      try {
        XsdValidator.fromDoc(repaired).dispose();
      } finally {
        repaired.dispose();
      }
    }
    const line476 = repairSchema(new TextDecoder().decode(schemas['e-CF 31 v.1.0.xsd'])).split('\n')[475];
    assert.match(line476 ?? '', /<xs:simpleType name="IndicadorServicioTodoIncluidoType">/);
  });

  test('the schema is chosen by root element; explicit kinds override', () => {
    const roots: Array<[string, string]> = [
      ['<RFCE><Encabezado></Encabezado></RFCE>', 'RFCE'],
      ['<ARECF><DetalleAcusedeRecibo></DetalleAcusedeRecibo></ARECF>', 'ARECF'],
      ['<ANECF><Encabezado></Encabezado></ANECF>', 'ANECF'],
      ['<ACECF><DetalleAprobacionComercial></DetalleAprobacionComercial></ACECF>', 'ACECF'],
      ['<SemillaModel><valor>x</valor></SemillaModel>', 'SemillaModel'],
      [unsigned.replace('<TipoeCF>31', '<TipoeCF>34'), 'ECF34'],
    ];
    for (const [xml, kind] of roots) {
      const result = validators.validateXml(xml);
      assert.ok(!result.success, kind);
      assert.equal(result.issues[0]?.code, 'XSD_VALIDATION_FAILED');
      assert.equal(result.issues[0]?.details?.kind, kind);
    }
    const seed = '<SemillaModel><valor>abc</valor><fecha>2026-04-01T10:15:00-04:00</fecha></SemillaModel>';
    assert.ok(validators.validateXml(seed, undefined, { unsigned: true }).success);
    const forced = validators.validateXml(signed, 'ECF32');
    assert.ok(!forced.success, 'an e-CF 31 is not a valid e-CF 32');
    assert.equal(forced.issues[0]?.details?.kind, 'ECF32');
  });

  test('unknown documents, malformed XML and DOCTYPEs are reported as data', () => {
    const unknown = validators.validateXml('<Factura></Factura>');
    assert.ok(!unknown.success);
    assert.equal(unknown.issues[0]?.code, 'XSD_DOCUMENT_KIND_UNKNOWN');
    const unknownType = validators.validateXml(unsigned.replace('<TipoeCF>31', '<TipoeCF>99'));
    assert.ok(!unknownType.success);
    assert.equal(unknownType.issues[0]?.code, 'XSD_DOCUMENT_KIND_UNKNOWN');
    const malformed = validators.validateXml('<ECF><Encabezado></ECF>');
    assert.ok(!malformed.success);
    assert.equal(malformed.issues[0]?.code, 'XML_MALFORMED');
    const doctype = validators.validateXml('<!DOCTYPE ECF [<!ENTITY a "b">]><ECF>&a;</ECF>');
    assert.ok(!doctype.success);
    assert.equal(doctype.issues[0]?.code, 'XML_DOCTYPE_FORBIDDEN');
  });

  test('a comment, CDATA or processing instruction that mentions <!DOCTYPE is not a DOCTYPE (issue 25)', () => {
    for (const wrapped of [
      `<!-- <!DOCTYPE x> -->${signed}`,
      `<?note <!DOCTYPE x> ?>${signed}`,
      signed.replace('<Encabezado>', '<Encabezado><!-- <!ENTITY y "z"> -->'),
    ])
      assert.deepEqual(
        validators.validateXml(wrapped),
        { success: true, data: { kind: 'ECF31' } },
        wrapped.slice(0, 40),
      );
    for (const real of [
      `<!-- a comment --><!DOCTYPE ECF>${signed}`,
      `<!doctype ECF>${signed}`,
      `<!-- never closed <!DOCTYPE ECF [<!ENTITY a "b">]>${signed}`,
      signed.replace('<Encabezado>', '<Encabezado><!ENTITY x "y">'),
    ]) {
      const refused = validators.validateXml(real);
      assert.ok(!refused.success);
      assert.equal(refused.issues[0]?.code, 'XML_DOCTYPE_FORBIDDEN', real.slice(0, 40));
    }
  });

  test('no libxml2 object outlives a validation (parsed documents are disposed), valid or not', () => {
    const liveBefore = countLiveObjects();
    for (let index = 0; index < 200; index += 1) {
      validators.validateXml(signed);
      validators.validateXml(signed.replace('<TipoPago>1', '<TipoPago>9'));
      validators.validateXml('<ECF><broken></ECF>');
      validators.validateXml(unsigned, undefined, { unsigned: true });
    }
    assert.equal(countLiveObjects(), liveBefore);
  });
});

describe('validator lifecycle', () => {
  test('a missing schema is XSD_SCHEMA_MISSING; a broken one XSD_SCHEMA_INVALID; dispose frees everything', () => {
    diag.configure({ enabled: true });
    try {
      const only31 = createXsdValidators({
        [XSD_FILE_NAMES.ECF31]: schemas[XSD_FILE_NAMES.ECF31] as Uint8Array,
        'README.md': 'ignored',
      });
      assert.ok(only31.success);
      assert.deepEqual(only31.data.kinds, ['ECF31']);
      const missing = only31.data.validateXml('<RFCE></RFCE>');
      assert.ok(!missing.success);
      assert.equal(missing.issues[0]?.code, 'XSD_SCHEMA_MISSING');
      assert.ok(countLiveObjects() > 0);
      only31.data.dispose();
      assert.equal(countLiveObjects(), 0);
      assert.throws(() => only31.data.validateXml(signed), /disposed/);

      const broken = createXsdValidators({
        [XSD_FILE_NAMES.ECF31]: schemas[XSD_FILE_NAMES.ECF31] as Uint8Array,
        [XSD_FILE_NAMES.RFCE]:
          '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="RFCE" type="Nope"/></xs:schema>',
      });
      assert.ok(!broken.success);
      assert.equal(broken.issues[0]?.code, 'XSD_SCHEMA_INVALID');
      assert.equal(broken.issues[0]?.path, XSD_FILE_NAMES.RFCE);
      assert.equal(countLiveObjects(), 0, 'the schemas that did compile were freed');
    } finally {
      diag.configure({ enabled: false });
    }
  });
});

/** Number of libxml2-wasm objects created since diagnostics were enabled and not yet disposed. */
function countLiveObjects(): number {
  const report = diag.report() as Record<string, { totalInstances?: number } | undefined> | undefined;
  if (report === undefined) throw new Error('libxml2-wasm diagnostics are not enabled');
  return Object.values(report).reduce((sum, entry) => sum + (entry?.totalInstances ?? 0), 0);
}
