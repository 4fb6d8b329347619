import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readDirectoryFile } from './directory.ts';
import { REPOSITORY_ROOT } from '@ecf/config';
import { readEnv } from './env.ts';
import { formatReceptionDate, formatSeedDate, targetOf } from './http.ts';
import { checkEcfSquaring } from './squaring.ts';
import { isSeedValueValid, createSeedValue, issueToken, verifyToken } from './tokens.ts';
import { buildEcf } from '../test/simulator-harness.ts';
import { decodeText, leafText, rootNameOf, toXml } from './xml.ts';

test('environment: defaults, SIM_DATABASE_URL over DATABASE_URL, paths from the repository root, errors name the variable', () => {
  const defaults = readEnv({});
  assert.equal(defaults.SIM_PORT, 4000);
  assert.equal(defaults.databaseUrl, 'postgresql://postgres@127.0.0.1:5432/ecf');
  assert.equal(defaults.xsdDirectory, join(REPOSITORY_ROOT, 'config/xsd'));
  assert.equal(defaults.SIM_LOAD_TEST, false);
  const configured = readEnv({
    DATABASE_URL: 'postgresql://a@h/x',
    SIM_DATABASE_URL: 'postgresql://b@h/y',
    SIM_LOAD_TEST: 'true',
    SIM_PROCESSING_DELAY_MS: '0',
  });
  assert.equal(configured.databaseUrl, 'postgresql://b@h/y');
  assert.equal(configured.SIM_LOAD_TEST, true);
  assert.equal(configured.SIM_PROCESSING_DELAY_MS, 0);
  assert.equal(readEnv({ DATABASE_URL: 'postgresql://a@h/x' }).databaseUrl, 'postgresql://a@h/x');
  assert.throws(() => readEnv({ SIM_SCHEMA: 'bad-name;drop' }), /SIM_SCHEMA/);
});

test('the directory file is validated', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'sim-directory-'));
  const good = join(folder, 'good.json');
  await writeFile(
    good,
    JSON.stringify([{ rnc: '101672919', receptionUrl: 'http://127.0.0.1:8080/fe/recepcion/api/ecf' }]),
  );
  assert.deepEqual(await readDirectoryFile(good), [
    { rnc: '101672919', receptionUrl: 'http://127.0.0.1:8080/fe/recepcion/api/ecf' },
  ]);
  const bad = join(folder, 'bad.json');
  await writeFile(bad, JSON.stringify([{ rnc: '12', receptionUrl: 'nope' }]));
  await assert.rejects(readDirectoryFile(bad), /0\.rnc, 0\.receptionUrl/);
  await assert.rejects(readDirectoryFile(join(folder, 'missing.json')), /cannot read/);
});

test('tokens: forged algorithm, wrong secret and expiry are refused', () => {
  const now = new Date('2026-04-01T12:00:00Z');
  const { token } = issueToken({
    secret: 'secret-one-123456',
    rnc: '131880738',
    environment: 'testecf',
    epoch: 0,
    now,
    ttlSeconds: 3600,
  });
  assert.equal(verifyToken(token, 'secret-one-123456', now)?.rnc, '131880738');
  assert.equal(verifyToken(token, 'secret-two-123456', now), undefined);
  assert.equal(verifyToken(token, 'secret-one-123456', new Date(now.getTime() + 3600_000)), undefined);
  const [, payload] = token.split('.');
  const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
  assert.equal(verifyToken(none, 'secret-one-123456', now), undefined);
  const seed = createSeedValue('secret-one-123456', 'testecf', now);
  assert.ok(isSeedValueValid(seed, 'secret-one-123456', 'testecf', now, 60_000));
  assert.ok(
    !isSeedValueValid(seed, 'secret-one-123456', 'testecf', new Date(now.getTime() + 61_000), 60_000),
  );
  assert.ok(!isSeedValueValid(seed, 'secret-one-123456', 'ecf', now, 60_000));
});

test('paths map to environment and service case-insensitively', () => {
  assert.deepEqual(targetOf('/TesteCF/Autenticacion/api/Autenticacion/Semilla'), {
    environment: 'testecf',
    service: 'autenticacion',
  });
  assert.deepEqual(targetOf('/api/estatusservicios/obtenerestatus?x=1'), {
    environment: '',
    service: 'estatusservicios',
  });
  assert.deepEqual(targetOf('/eCF/api/EstatusServicios/VerificarEstado'), {
    environment: 'ecf',
    service: 'estatusservicios',
  });
  assert.equal(targetOf('/_sim/faults'), undefined);
  assert.equal(targetOf('/prod/recepcion'), undefined);
});

test('dates as the tax authority writes them', () => {
  assert.equal(formatReceptionDate(new Date('2023-08-15T10:06:57Z')), '8/15/2023 6:06:57 AM');
  assert.equal(formatReceptionDate(new Date('2023-08-15T16:00:00Z')), '8/15/2023 12:00:00 PM');
  assert.equal(formatSeedDate(new Date('2022-12-06T14:50:14.968Z')), '2022-12-06T10:50:14.9680000-04:00');
});

test('xml helpers read leaves, entities and roots, and write the XML alternative', () => {
  assert.equal(leafText('<a><NombreItem>A &amp; B &#233;</NombreItem></a>', 'NombreItem'), 'A & B é');
  assert.equal(leafText('<a><MontoItemOtraMoneda>1</MontoItemOtraMoneda></a>', 'MontoItem'), undefined);
  assert.equal(decodeText('&lt;x&gt;'), '<x>');
  assert.equal(rootNameOf('\uFEFF<?xml version="1.0"?><!-- c --><ECF><x/></ECF>'), 'ECF');
  assert.equal(rootNameOf('hola'), undefined);
  assert.equal(
    toXml('R', { a: 'x<y', b: [{ c: 1 }, { c: 2 }], d: null }),
    '<?xml version="1.0" encoding="utf-8"?><R><a>x&lt;y</a><b><c>1</c></b><b><c>2</c></b><d /></R>',
  );
});

test('squaring tolerates RD$1 per line and RD$1 per line on totals', () => {
  assert.deepEqual(checkEcfSquaring(buildEcf({ rnc: '131880738', encf: 'E310000000001', lines: 3 })), []);
  assert.deepEqual(
    checkEcfSquaring(
      buildEcf({ rnc: '131880738', encf: 'E310000000001', lines: 3, firstLineAmount: '101.00' }),
    ),
    [],
  );
  const issues = checkEcfSquaring(
    buildEcf({ rnc: '131880738', encf: 'E310000000001', lines: 3, firstLineAmount: '104.00' }),
  );
  assert.deepEqual(
    issues.map((issue) => issue.field),
    ['Item[1].MontoItem', 'MontoGravadoI1', 'MontoGravadoTotal'],
  );
});

test('squaring: the ISC (006-039) of a rate joins its ITBIS base, as the tax authority beer row declares', () => {
  // The tax authority's beer row: 3,230.00 at 18 %, specific 540.04 (006), ad valorem 191.28 (023).
  const beer = (totalItbis: string): string =>
    '<ECF><Encabezado><Totales><MontoGravadoTotal>3230.00</MontoGravadoTotal>' +
    `<MontoGravadoI1>3230.00</MontoGravadoI1><ITBIS1>18</ITBIS1><TotalITBIS>${totalItbis}</TotalITBIS>` +
    `<TotalITBIS1>${totalItbis}</TotalITBIS1><MontoImpuestoAdicional>731.32</MontoImpuestoAdicional>` +
    '<ImpuestosAdicionales><ImpuestoAdicional><TipoImpuesto>006</TipoImpuesto>' +
    '<TasaImpuestoAdicional>633.85</TasaImpuestoAdicional>' +
    '<MontoImpuestoSelectivoConsumoEspecifico>540.04</MontoImpuestoSelectivoConsumoEspecifico></ImpuestoAdicional>' +
    '<ImpuestoAdicional><TipoImpuesto>023</TipoImpuesto><TasaImpuestoAdicional>10</TasaImpuestoAdicional>' +
    '<MontoImpuestoSelectivoConsumoAdvalorem>191.28</MontoImpuestoSelectivoConsumoAdvalorem></ImpuestoAdicional>' +
    `</ImpuestosAdicionales><MontoTotal>${(3230 + Number(totalItbis) + 731.32).toFixed(2)}</MontoTotal></Totales>` +
    '</Encabezado><DetallesItems><Item><NumeroLinea>1</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>' +
    '<CantidadItem>2.00</CantidadItem><PrecioUnitarioItem>1615.00</PrecioUnitarioItem>' +
    '<TablaImpuestoAdicional><ImpuestoAdicional><TipoImpuesto>006</TipoImpuesto></ImpuestoAdicional>' +
    '<ImpuestoAdicional><TipoImpuesto>023</TipoImpuesto></ImpuestoAdicional></TablaImpuestoAdicional>' +
    '<MontoItem>3230.00</MontoItem></Item></DetallesItems></ECF>';
  // 18 % of 3,230.00 + 540.04 + 191.28.
  assert.deepEqual(checkEcfSquaring(beer('713.04')), []);
  // 18 % of the items alone is RD$131.64 short of it.
  assert.deepEqual(checkEcfSquaring(beer('581.40')), [
    { field: 'TotalITBIS1', declared: 58140, computed: 71304, toleranceCents: 100 },
  ]);
});
