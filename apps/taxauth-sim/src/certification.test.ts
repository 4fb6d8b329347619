import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadXsdValidators } from '@ecf/config';
import {
  encfTypeOf,
  formatEncf,
  renumberEcfSet,
  TAXAUTH_TEST_ISSUER_RNC,
  type TEcfSetWorkbook,
} from '@ecf/certification-sets';
import { buildAcecfXml, signXml, type TEcfTree, type TXsdValidators } from '@ecf/fiscal-core';
import {
  admin,
  downloadWorkbook,
  sendDataSet,
  signEcfRow,
  startFakeReceiver,
  type TFakeReceiver,
} from '../test/certification-harness.ts';
import {
  authenticate,
  getWithToken,
  issuerFor,
  jsonOf,
  openSimulator,
  postXml,
  TEST_XSD_DIRECTORY,
  waitForResult,
  type TSimulatorHarness,
} from '../test/simulator-harness.ts';
import { categoryOfRow } from './certification/portal.ts';
import { CERTIFICATION_STEPS } from './certification/steps.ts';

const TAXPAYER = '131880738';
const LEGAL_NAME = 'Empresa Certificada & Hijos, SRL';
const taxpayer = issuerFor(TAXPAYER);
const stranger = issuerFor('999999999');
const taxAuthorityBuyer = issuerFor(TAXAUTH_TEST_ISSUER_RNC);

let harness: TSimulatorHarness;
let validators: TXsdValidators;
let receiver: TFakeReceiver;
let token: string;
const path = `/_sim/certification/${TAXPAYER}`;

before(async () => {
  harness = await openSimulator({ processingDelayMs: 0 });
  validators = await loadXsdValidators(TEST_XSD_DIRECTORY);
  receiver = await startFakeReceiver({
    rnc: TAXPAYER,
    certificate: taxpayer.certificate,
    otherCertificate: stranger.certificate,
    validators,
  });
  token = await authenticate(harness.baseUrl, 'certecf', taxpayer);
});
after(async () => {
  await receiver.close();
  validators.dispose();
  await harness.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the untyped status answer
async function statusOf(): Promise<any> {
  const { status, body } = await admin(harness.baseUrl, 'GET', path);
  assert.equal(status, 200);
  return body;
}

async function currentEcfSet(): Promise<TEcfSetWorkbook> {
  const { workbook } = await downloadWorkbook(harness.baseUrl, TAXPAYER, 'ecf');
  assert.ok(workbook.kind === 'ecf_set');
  return workbook;
}

test('registering issues a data-test and an approval workbook for the RNC; an unknown RNC is 404', async () => {
  const registered = await admin(harness.baseUrl, 'POST', path, { legalName: LEGAL_NAME });
  assert.equal(registered.status, 201);
  assert.equal(registered.body.step, 'data_tests_ecf');
  assert.deepEqual(
    registered.body.steps.map((step: { step: string; state: string }) => `${step.step}:${step.state}`),
    CERTIFICATION_STEPS.map((step, index) =>
      index === 0 ? `${step}:done` : index === 1 ? `${step}:current` : `${step}:pending`,
    ),
  );
  assert.equal(registered.body.dataTests.expected, 25, '21 e-CF through recepcion + 4 RFCE');
  assert.equal(registered.body.dataTests.accepted, 0);
  assert.equal(registered.body.approvalTests.expected, 11);
  assert.deepEqual(registered.body.simulation.required, {
    '31': 4,
    '32': 2,
    '32_rfce': 4,
    '33': 1,
    '34': 2,
    '41': 2,
    '43': 2,
    '44': 2,
    '45': 2,
    '46': 2,
    '47': 2,
  });
  const again = await admin(harness.baseUrl, 'POST', path, {});
  assert.equal(again.status, 200);
  assert.equal(again.body.step, 'data_tests_ecf');

  const { response, workbook } = await downloadWorkbook(harness.baseUrl, TAXPAYER, 'ecf');
  assert.equal(
    response.headers.get('content-type'),
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  assert.match(response.headers.get('content-disposition') ?? '', /filename="131880738-\d{14}\.xlsx"/);
  assert.ok(workbook.kind === 'ecf_set');
  assert.equal(workbook.issuerRnc, TAXPAYER);
  assert.equal(workbook.ecf.length, 25);
  for (const row of workbook.ecf) {
    assert.equal(row.values['RazonSocialEmisor'], LEGAL_NAME);
    assert.equal(row.caseId, `${TAXPAYER}${row.values['ENCF']}`);
  }
  const approvals = await downloadWorkbook(harness.baseUrl, TAXPAYER, 'approvals');
  assert.ok(approvals.workbook.kind === 'approval_set');
  assert.equal(approvals.workbook.buyerRnc, TAXPAYER);
  assert.ok(approvals.workbook.approvals.every((row) => row.values['RNCEmisor'] === TAXAUTH_TEST_ISSUER_RNC));

  const unknown = await admin(harness.baseUrl, 'GET', '/_sim/certification/101010101');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'CERTIFICATION_NOT_FOUND');
  assert.equal((await admin(harness.baseUrl, 'GET', '/_sim/certification/12')).status, 400);
});

test('one field sent otherwise is Rechazado naming the field and both values; the data tests restart with a new workbook', async () => {
  const set = await currentEcfSet();
  // A small E32 in full is refused by the blocking check, which leaves the e-NCF free and restarts nothing.
  const small = set.ecf.find((row) => categoryOfRow(row) === '32_rfce');
  assert.ok(small !== undefined);
  const full = await signEcfRow(small, set, taxpayer.certificate);
  let response = await postXml(`${harness.baseUrl}/certecf/recepcion/api/facturaselectronicas`, full.xml, {
    fileName: full.fileName,
    token,
  });
  let result = await waitForResult(harness.baseUrl, 'certecf', token, (await jsonOf(response)).trackId);
  assert.equal(result['estado'], 'Rechazado');
  assert.equal(result['secuenciaUtilizada'], false);
  assert.equal((await statusOf()).dataTests.resets, 0);

  // A row with an item quantity written with decimals (`15.00`), sent without them.
  let target: { row: (typeof set.ecf)[number]; item: number; quantity: string } | undefined;
  for (const row of set.ecf) {
    if (categoryOfRow(row) === '32_rfce') continue;
    for (const [column, value] of Object.entries(row.values)) {
      const match = /^CantidadItem\[(\d+)\]$/.exec(column);
      if (match !== null && /^\d+\.00$/.test(value)) {
        target = { row, item: Number(match[1]), quantity: value };
        break;
      }
    }
    if (target !== undefined) break;
  }
  assert.ok(target !== undefined, 'the model set has a quantity written with two decimals');
  const { row, item, quantity } = target;
  const altered = quantity.replace(/\.00$/, '');
  const signed = await signEcfRow(row, set, taxpayer.certificate, (document) => {
    const items = (document.ECF['DetallesItems'] as TEcfTree)['Item'] as TEcfTree[];
    (items[item - 1] as Record<string, unknown>)['CantidadItem'] = altered;
    return document;
  });
  response = await postXml(`${harness.baseUrl}/certecf/recepcion/api/facturaselectronicas`, signed.xml, {
    fileName: signed.fileName,
    token,
  });
  result = await waitForResult(harness.baseUrl, 'certecf', token, (await jsonOf(response)).trackId);
  assert.equal(result['estado'], 'Rechazado');
  assert.equal(result['secuenciaUtilizada'], true, 'the e-NCF is burned');
  const expectedText = `El valor del campo CantidadItem[${item}] (${quantity}) no coincide con el valor (${altered})`;
  assert.deepEqual(result['mensajes'], [{ valor: expectedText, codigo: 16 }]);

  const status = await statusOf();
  assert.equal(status.step, 'data_tests_ecf');
  assert.equal(status.dataTests.resets, 1);
  assert.equal(status.dataTests.accepted, 0);
  assert.deepEqual(
    { ...status.dataTests.lastRejection, at: undefined, trackId: undefined },
    {
      encf: signed.encf,
      sheet: 'ECF',
      field: `CantidadItem[${item}]`,
      expected: quantity,
      received: altered,
      message: expectedText,
      trackId: undefined,
      at: undefined,
    },
  );
  const renewed = await currentEcfSet();
  const before = new Set(set.ecf.map((candidate) => candidate.values['ENCF']));
  assert.ok(
    renewed.ecf.every((candidate) => !before.has(candidate.values['ENCF'])),
    'a new workbook with other eNCFs',
  );
  assert.deepEqual(status.dataTests.pendingEncfs.length, 25);
});

test('the whole issued set, sent in order through recepcion and recepcionfc, completes the data tests', async () => {
  const set = await currentEcfSet();
  const results = await sendDataSet(harness.baseUrl, set, { token, certificate: taxpayer.certificate });
  assert.equal(results.length, 25);
  for (const sent of results)
    assert.ok(
      ['Aceptado', 'Aceptado Condicional'].includes(sent.result['estado']),
      `${sent.sheet} ${sent.encf}: ${JSON.stringify(sent.result)}`,
    );
  const status = await statusOf();
  assert.equal(status.dataTests.accepted, 25);
  assert.deepEqual(status.dataTests.pendingEncfs, []);
  assert.equal(status.step, 'data_tests_commercial_approval');
  assert.ok(status.steps[1].completedAt !== null);
});

test('the approval set: a field other than the row is refused naming it; every row completes step 3', async () => {
  const { workbook } = await downloadWorkbook(harness.baseUrl, TAXPAYER, 'approvals');
  assert.ok(workbook.kind === 'approval_set');
  const url = `${harness.baseUrl}/certecf/aprobacioncomercial/api/aprobacioncomercial`;
  const acecfOf = (values: Readonly<Record<string, string>>, approvedAt?: string) => {
    const built = buildAcecfXml({
      rncEmisor: values['RNCEmisor'] ?? '',
      encf: values['eNCF'] ?? '',
      fechaEmision: values['FechaEmision'] ?? '',
      montoTotal: values['MontoTotal'] ?? '',
      rncComprador: TAXPAYER,
      estado: values['Estado'] === '2' ? 'rejected' : 'accepted',
      ...(values['DetalleMotivoRechazo'] === undefined
        ? {}
        : { rejectionReason: values['DetalleMotivoRechazo'] }),
      approvedAt: approvedAt ?? values['FechaHoraAprobacionComercial'] ?? '',
    });
    if (!built.success) throw new Error(JSON.stringify(built.issues));
    return signXml(built.data, taxpayer.certificate).xml;
  };
  const [first, ...rest] = workbook.approvals;
  assert.ok(first !== undefined);
  let response = await postXml(url, acecfOf(first.values, '01-01-2026 10:00:00'), { token });
  assert.equal(response.status, 400);
  const refused = await jsonOf(response);
  assert.equal(refused.codigo, '2');
  assert.deepEqual(refused.mensaje, [
    `El valor del campo FechaHoraAprobacionComercial (${first.values['FechaHoraAprobacionComercial']}) no coincide con el valor (01-01-2026 10:00:00)`,
  ]);
  const afterRefusal = await statusOf();
  assert.equal(afterRefusal.approvalTests.lastRejection.field, 'FechaHoraAprobacionComercial');
  assert.equal(afterRefusal.approvalTests.accepted, 0);

  // MontoTotal is a number in the workbook (7080) and two decimals in the ACECF (7080.00): equal amounts.
  for (const row of [first, ...rest]) {
    response = await postXml(url, acecfOf(row.values), { token });
    assert.equal(response.status, 200, JSON.stringify(await response.clone().json()));
    assert.equal((await jsonOf(response)).codigo, '1');
  }
  const status = await statusOf();
  assert.equal(status.approvalTests.accepted, 11);
  assert.equal(status.step, 'simulation_ecf');
  assert.ok(status.simulation.countingFrom !== null);
});

test('a simulation with the quantities of the data set completes step 4', async () => {
  const set = await currentEcfSet();
  let next = 9000;
  const renumbering: Record<string, string> = {};
  for (const row of set.ecf) {
    const encf = row.values['ENCF'] ?? '';
    renumbering[encf] = formatEncf(encfTypeOf(encf) ?? '', next);
    next += 1;
  }
  const simulation = renumberEcfSet({ workbook: set, rnc: TAXPAYER, renumbering });
  const partial = { ...simulation, ecf: simulation.ecf.slice(0, 3), rfce: [] };
  await sendDataSet(harness.baseUrl, partial, { token, certificate: taxpayer.certificate });
  let status = await statusOf();
  assert.equal(status.step, 'simulation_ecf');
  const counted = Object.values(status.simulation.accepted as Record<string, number>).reduce(
    (a, b) => a + b,
    0,
  );
  assert.ok(counted > 0 && counted <= 3, JSON.stringify(status.simulation));

  const rest = { ...simulation, ecf: simulation.ecf.slice(3) };
  await sendDataSet(harness.baseUrl, rest, { token, certificate: taxpayer.certificate });
  status = await statusOf();
  assert.deepEqual(status.simulation.accepted, status.simulation.required);
  assert.equal(status.step, 'simulation_printed_representation');
});

test('attestations and URLs only in order; a rejected printed representation leaves the step current', async () => {
  const urls = { kind: 'test', receptionUrl: receiver.baseUrl, commercialApprovalUrl: receiver.baseUrl };
  let answer = await admin(harness.baseUrl, 'PUT', `${path}/urls`, urls);
  assert.equal(answer.status, 409);
  assert.equal(answer.body.error.code, 'CERTIFICATION_PREREQUISITES_MISSING');
  assert.deepEqual(answer.body.error.details.missing, [
    'simulation_printed_representation',
    'printed_representation_validation',
  ]);
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, {
    step: 'printed_representation_validation',
  });
  assert.equal(answer.status, 409);
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, {
    step: 'simulation_printed_representation',
  });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.step, 'printed_representation_validation');
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, {
    step: 'printed_representation_validation',
    outcome: 'rejected',
    notes: 'Falta el código de seguridad en la E41',
  });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.step, 'printed_representation_validation');
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, {
    step: 'printed_representation_validation',
  });
  assert.equal(answer.body.step, 'test_service_urls');
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, {
    step: 'simulation_printed_representation',
  });
  assert.equal(answer.status, 409);
  assert.equal(answer.body.error.code, 'CERTIFICATION_STEP_ALREADY_DONE');
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, { step: 'sworn_declaration' });
  assert.equal(answer.status, 409);
  answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'ecf' });
  assert.equal(answer.status, 409, 'no reception test before the test URLs');
  assert.deepEqual(
    (await statusOf()).attestations.map(
      (entry: { step: string; outcome: string }) => `${entry.step}:${entry.outcome}`,
    ),
    [
      'simulation_printed_representation:approved',
      'printed_representation_validation:rejected',
      'printed_representation_validation:approved',
    ],
  );
  answer = await admin(harness.baseUrl, 'PUT', `${path}/urls`, {
    ...urls,
    authenticationUrl: receiver.baseUrl,
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.step, 'reception_test_ecf');
  assert.equal(answer.body.urls.test.authenticationUrl, receiver.baseUrl);
});

test('reception tests: an unsigned or wrongly signed ARECF is refused; a signed one and an approval complete steps 8 to 11', async () => {
  receiver.mode = 'unsigned';
  let answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'ecf' });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.ok, false);
  assert.deepEqual(
    answer.body.calls.map((call: { service: string; outcome: string }) => `${call.service}:${call.outcome}`),
    ['seed:ok', 'certificate_validation:ok', 'ecf_reception:failed'],
  );
  assert.match(answer.body.calls[2].detail, /not validly signed/);
  assert.equal(answer.body.calls[0].url, `${receiver.baseUrl}/fe/autenticacion/api/semilla`);
  assert.equal(answer.body.calls[2].url, `${receiver.baseUrl}/fe/recepcion/api/ecf`);
  assert.equal(answer.body.step, 'reception_test_ecf');

  receiver.mode = 'wrong_signer';
  answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'ecf' });
  assert.equal(answer.body.ok, false);
  assert.match(answer.body.calls[2].detail, /signed by 999999999, not by 131880738/);

  receiver.mode = 'signed';
  answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'ecf' });
  assert.equal(answer.body.ok, true, JSON.stringify(answer.body.calls));
  assert.equal(answer.body.step, 'reception_test_commercial_approval');
  const delivered = receiver.received.at(-1);
  assert.ok(delivered !== undefined);
  assert.match(delivered.fileName ?? '', /^131880681E31\d{10}\.xml$/);
  assert.match(delivered.authorization ?? '', /^bearer \S+$/);
  assert.ok(validators.validateXml(delivered.xml).success, 'the e-CF delivered follows its XSD');
  // The tax authority knows the e-CF it delivered: Consulta Estado answers it to the buyer.
  const encf = /<eNCF>([^<]+)<\/eNCF>/.exec(delivered.xml)?.[1] ?? '';
  const state = await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/certecf/consultaestado/api/consultas/estado?rncemisor=${TAXAUTH_TEST_ISSUER_RNC}&ncfelectronico=${encf}&rnccomprador=${TAXPAYER}&codigoseguridad=${encodeURIComponent(/<SignatureValue>([^<]{6})/.exec(delivered.xml)?.[1] ?? '')}`,
      token,
    ),
  );
  assert.equal(state.estado, 'Aceptado', JSON.stringify(state));

  receiver.mode = 'refuse_approval';
  answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'commercial_approval' });
  assert.equal(answer.body.ok, false);
  assert.equal(answer.body.calls.at(-1).httpStatus, 400);
  receiver.mode = 'signed';
  answer = await admin(harness.baseUrl, 'POST', `${path}/reception-tests`, { kind: 'commercial_approval' });
  assert.equal(answer.body.ok, true, JSON.stringify(answer.body.calls));
  assert.equal(answer.body.step, 'production_service_urls');
  const approval = receiver.received.at(-1);
  assert.ok(approval !== undefined && approval.path.endsWith('/fe/aprobacioncomercial/api/ecf'));
  assert.match(approval.xml, new RegExp(`<RNCEmisor>${TAXPAYER}</RNCEmisor>`));
  assert.match(approval.xml, new RegExp(`<RNCComprador>${TAXAUTH_TEST_ISSUER_RNC}</RNCComprador>`));
  const status = await statusOf();
  assert.deepEqual(
    status.receptionTests.map((run: { kind: string; ok: boolean }) => `${run.kind}:${run.ok}`),
    ['ecf:false', 'ecf:false', 'ecf:true', 'commercial_approval:false', 'commercial_approval:true'],
  );
});

test('production URLs and the sworn declaration finish the certification: the ecf directory lists the taxpayer', async () => {
  const production = 'https://ecf.empresa.example/eCF';
  let answer = await admin(harness.baseUrl, 'PUT', `${path}/urls`, {
    kind: 'production',
    receptionUrl: production,
    commercialApprovalUrl: production,
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.step, 'sworn_declaration');
  answer = await admin(harness.baseUrl, 'POST', `${path}/attestations`, { step: 'sworn_declaration' });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.step, 'finished');
  assert.ok(answer.body.steps.every((step: { state: string }) => step.state === 'done'));

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the untyped directory answer
  const listed = async (environment: 'ecf' | 'testecf' | 'certecf'): Promise<any> => {
    const environmentToken = await authenticate(harness.baseUrl, environment, taxAuthorityBuyer);
    return jsonOf(
      await getWithToken(
        `${harness.baseUrl}/${environment}/consultadirectorio/api/consultas/listado`,
        environmentToken,
      ),
    );
  };
  const entry = {
    nombre: LEGAL_NAME,
    rnc: TAXPAYER,
    urlRecepcion: production,
    urlAceptacion: production,
    urlOpcional: null,
  };
  assert.deepEqual(await listed('ecf'), [entry]);
  assert.deepEqual(await listed('testecf'), []);
  assert.deepEqual(await listed('certecf'), []);

  // Configured entries are listed in the environments they name (all three when they name none).
  const put = await fetch(`${harness.baseUrl}/_sim/directory`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      { rnc: '101672919', receptionUrl: 'https://a.example/TesteCF', environments: ['testecf'] },
      { rnc: '130862346', receptionUrl: 'https://b.example/fe' },
    ]),
  });
  assert.equal(put.status, 204);
  assert.deepEqual(
    (await listed('testecf')).map((listedEntry: { rnc: string }) => listedEntry.rnc),
    ['101672919', '130862346'],
  );
  assert.deepEqual(
    (await listed('ecf')).map((listedEntry: { rnc: string }) => listedEntry.rnc),
    ['130862346', TAXPAYER],
  );

  // The finished certification is in the database: a restarted simulator still lists it.
  await harness.restart();
  assert.deepEqual(await listed('ecf'), [entry]);
  const one = await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/ecf/consultadirectorio/api/consultas/obtenerdirectorioporrnc?rnc=${TAXPAYER}`,
      await authenticate(harness.baseUrl, 'ecf', taxAuthorityBuyer),
    ),
  );
  assert.deepEqual(one, [entry]);
  answer = await admin(harness.baseUrl, 'POST', `${path}/reset`, { part: 'data' });
  assert.equal(answer.status, 409);
  assert.equal(answer.body.error.code, 'CERTIFICATION_FINISHED');
});

test('a reset of the simulator clears the certifications', async () => {
  const reset = await fetch(`${harness.baseUrl}/_sim/reset`, { method: 'POST' });
  assert.equal(reset.status, 204);
  assert.equal((await admin(harness.baseUrl, 'GET', path)).status, 404);
  const environmentToken = await authenticate(harness.baseUrl, 'ecf', taxAuthorityBuyer);
  assert.deepEqual(
    await jsonOf(
      await getWithToken(`${harness.baseUrl}/ecf/consultadirectorio/api/consultas/listado`, environmentToken),
    ),
    [],
  );
});
