import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import forge from 'node-forge';
import { holderIdFromSerialNumber, loadCertificate } from './certificate.ts';
import { createTestCertificate } from './test-certificate.ts';

const GOLDEN_P12 = readFileSync(new URL('../../test/golden/test-certificate.p12', import.meta.url));
const GOLDEN_PASSWORD = 'ecf-golden-2036';

describe('loadCertificate', () => {
  test('reads the golden PKCS#12: RSA key, leaf DER, subject serialNumber with the RNC, validity', () => {
    const result = loadCertificate({ p12: GOLDEN_P12, password: GOLDEN_PASSWORD });
    assert.ok(result.success);
    const certificate = result.data;
    assert.equal(certificate.privateKey.asymmetricKeyType, 'rsa');
    assert.equal(certificate.privateKey.asymmetricKeyDetails?.modulusLength, 2048);
    assert.equal(certificate.subject.serialNumber, 'IDCDO-131880738');
    assert.equal(certificate.holderId, '131880738');
    assert.equal(certificate.subject.commonName, 'CERTIFICADO DE PRUEBA ECF');
    assert.equal(certificate.subject.country, 'DO');
    assert.deepEqual(certificate.issuer, certificate.subject);
    assert.equal(certificate.validTo.toISOString(), '2036-12-31T23:59:59.000Z');
    assert.equal(certificate.validFrom.toISOString(), '2026-01-01T00:00:00.000Z');
    assert.equal(certificate.certificateSerialNumber, '14903CE39EFF0EA7881FFF0BD65786EB');
    const x509 = new X509Certificate(Buffer.from(certificate.certificateDerBase64, 'base64'));
    assert.ok(x509.checkPrivateKey(certificate.privateKey));
    assert.match(certificate.certificatePem, /^-----BEGIN CERTIFICATE-----\n/);
  });

  test('a wrong password is CERTIFICATE_PASSWORD_INVALID and the message does not echo it', () => {
    const result = loadCertificate({ p12: GOLDEN_P12, password: 'not-the-password' });
    assert.ok(!result.success);
    assert.equal(result.issues[0]?.code, 'CERTIFICATE_PASSWORD_INVALID');
    assert.ok(!result.issues[0]?.message.includes('not-the-password'));
  });

  test('bytes that are not PKCS#12 are CERTIFICATE_FILE_INVALID', () => {
    for (const bytes of [
      Buffer.from('hello, not a certificate'),
      Buffer.alloc(0),
      GOLDEN_P12.subarray(0, 200),
    ]) {
      const result = loadCertificate({ p12: bytes, password: GOLDEN_PASSWORD });
      assert.ok(!result.success);
      assert.equal(result.issues[0]?.code, 'CERTIFICATE_FILE_INVALID');
    }
  });

  test('a PKCS#12 with only a certificate is CERTIFICATE_PRIVATE_KEY_MISSING', () => {
    const generated = createTestCertificate({ rnc: '101010101', commonName: 'Solo certificado' });
    const asn1 = forge.pkcs12.toPkcs12Asn1(
      null,
      [forge.pki.certificateFromPem(generated.certificatePem)],
      'pw',
      { algorithm: '3des' },
    );
    const p12 = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
    const result = loadCertificate({ p12, password: 'pw' });
    assert.ok(!result.success);
    assert.equal(result.issues[0]?.code, 'CERTIFICATE_PRIVATE_KEY_MISSING');
  });

  test('reads a PKCS#12 written by OpenSSL 3 defaults (PBES2/AES-256, SHA-256 MAC) with a CA chain', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ecf-p12-'));
    try {
      const leaf = createTestCertificate({ rnc: '40212345678', commonName: 'Firmante OpenSSL' });
      const other = createTestCertificate({ rnc: '999999999', commonName: 'Otra CA' });
      writeFileSync(join(directory, 'key.pem'), leaf.privateKeyPem);
      writeFileSync(join(directory, 'cert.pem'), leaf.certificatePem);
      writeFileSync(join(directory, 'chain.pem'), other.certificatePem);
      execFileSync(
        'openssl',
        [
          'pkcs12',
          '-export',
          '-inkey',
          'key.pem',
          '-in',
          'cert.pem',
          '-certfile',
          'chain.pem',
          '-out',
          'out.p12',
          '-passout',
          'pass:s3cret',
        ],
        { cwd: directory },
      );
      const result = loadCertificate({ p12: readFileSync(join(directory, 'out.p12')), password: 's3cret' });
      assert.ok(result.success, JSON.stringify(!result.success && result.issues));
      assert.equal(result.data.holderId, '40212345678');
      assert.equal(result.data.subject.commonName, 'Firmante OpenSSL');
      const wrong = loadCertificate({ p12: readFileSync(join(directory, 'out.p12')), password: 'nope' });
      assert.ok(!wrong.success);
      assert.equal(wrong.issues[0]?.code, 'CERTIFICATE_PASSWORD_INVALID');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('PEM input: picks the certificate matching the key; mismatches and non-RSA keys are reported', () => {
    const first = createTestCertificate({ rnc: '131880738', commonName: 'Uno' });
    const second = createTestCertificate({ rnc: '101672919', commonName: 'Dos' });
    const chain = loadCertificate({
      privateKeyPem: first.privateKeyPem,
      certificatePem: second.certificatePem + first.certificatePem,
    });
    assert.ok(chain.success);
    assert.equal(chain.data.subject.commonName, 'Uno');

    const mismatch = loadCertificate({
      privateKeyPem: first.privateKeyPem,
      certificatePem: second.certificatePem,
    });
    assert.ok(!mismatch.success);
    assert.equal(mismatch.issues[0]?.code, 'CERTIFICATE_KEY_MISMATCH');

    const noCertificate = loadCertificate({ privateKeyPem: first.privateKeyPem, certificatePem: '' });
    assert.ok(!noCertificate.success);
    assert.equal(noCertificate.issues[0]?.code, 'CERTIFICATE_MISSING');

    const noKey = loadCertificate({ privateKeyPem: 'nothing', certificatePem: first.certificatePem });
    assert.ok(!noKey.success);
    assert.equal(noKey.issues[0]?.code, 'CERTIFICATE_PRIVATE_KEY_MISSING');

    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const unsupported = loadCertificate({ privateKeyPem: ec, certificatePem: first.certificatePem });
    assert.ok(!unsupported.success);
    assert.equal(unsupported.issues[0]?.code, 'CERTIFICATE_KEY_UNSUPPORTED');
  });
});

describe('createTestCertificate', () => {
  test('self-signed RSA-2048 with IDCDO-<rnc>, the requested validity and digitalSignature + nonRepudiation', () => {
    const generated = createTestCertificate({
      rnc: '00112345678',
      commonName: 'José Pérez',
      validFrom: new Date('2025-01-01T00:00:00Z'),
      validTo: new Date('2026-01-01T00:00:00Z'),
    });
    const x509 = new X509Certificate(generated.certificatePem);
    assert.ok(x509.verify(x509.publicKey), 'self-signed');
    assert.equal(x509.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
    assert.equal(new Date(x509.validTo).toISOString(), '2026-01-01T00:00:00.000Z');
    const forgeCertificate = forge.pki.certificateFromPem(generated.certificatePem);
    const keyUsage = forgeCertificate.getExtension('keyUsage') as {
      digitalSignature?: boolean;
      nonRepudiation?: boolean;
      keyCertSign?: boolean;
    };
    assert.equal(keyUsage.digitalSignature, true);
    assert.equal(keyUsage.nonRepudiation, true);
    assert.notEqual(keyUsage.keyCertSign, true);

    const loaded = loadCertificate({ p12: generated.p12, password: generated.password });
    assert.ok(loaded.success);
    assert.equal(loaded.data.subject.serialNumber, 'IDCDO-00112345678');
    assert.equal(loaded.data.subject.commonName, 'José Pérez', 'UTF-8 common names survive');
  });

  test('holderIdFromSerialNumber strips an alphabetic prefix only', () => {
    assert.equal(holderIdFromSerialNumber('IDCDO-05500147813'), '05500147813');
    assert.equal(holderIdFromSerialNumber('RNC-131880738'), '131880738');
    assert.equal(holderIdFromSerialNumber('131880738'), '131880738');
    assert.equal(holderIdFromSerialNumber(undefined), undefined);
    assert.equal(holderIdFromSerialNumber('  '), undefined);
  });
});

describe('key usage', () => {
  test('is read from the certificate in RFC 5280 order; undefined without the extension', () => {
    const read = (options: Omit<Parameters<typeof createTestCertificate>[0], 'rnc' | 'commonName'>) => {
      const generated = createTestCertificate({ rnc: '101010101', commonName: 'Uso', ...options });
      const result = loadCertificate({ p12: generated.p12, password: generated.password });
      assert.ok(result.success);
      return result.data.keyUsage;
    };
    assert.deepEqual(read({}), ['digitalSignature', 'nonRepudiation']);
    assert.deepEqual(read({ keyUsage: ['decipherOnly', 'keyEncipherment'] }), [
      'keyEncipherment',
      'decipherOnly',
    ]);
    assert.equal(read({ keyUsage: null }), undefined);
    const golden = loadCertificate({ p12: GOLDEN_P12, password: GOLDEN_PASSWORD });
    assert.ok(golden.success);
    assert.deepEqual(golden.data.keyUsage, ['digitalSignature', 'nonRepudiation']);
  });

  test('test files for the refusals: no holder id, no private key, a key of another certificate', () => {
    const load = (options: Omit<Parameters<typeof createTestCertificate>[0], 'rnc' | 'commonName'>) => {
      const generated = createTestCertificate({ rnc: '101010101', commonName: 'Roto', ...options });
      return loadCertificate({ p12: generated.p12, password: generated.password });
    };
    const noHolder = load({ omitHolderId: true });
    assert.ok(noHolder.success);
    assert.equal(noHolder.data.holderId, undefined);
    const certificateOnly = load({ contents: 'certificate_only' });
    assert.ok(!certificateOnly.success);
    assert.equal(certificateOnly.issues[0]?.code, 'CERTIFICATE_PRIVATE_KEY_MISSING');
    const otherKey = load({ contents: 'other_key' });
    assert.ok(!otherKey.success);
    assert.equal(otherKey.issues[0]?.code, 'CERTIFICATE_KEY_MISMATCH');
  });
});
