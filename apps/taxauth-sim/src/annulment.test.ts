/**
 * Range annulment (ANECF) judged like the tax authority: structure (XSD), signature, the issuer's own
 * ranges, counts, used e-NCF (full e-CF or RFCE), the injected partial annulment that makes our side
 * `uncertain`, a lost answer, and receptions of annulled e-NCF afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildAnecfXml, signXml, type TAnnulmentRange } from '@ecf/fiscal-core';
import {
  authenticate,
  issuerFor,
  jsonOf,
  openSimulator,
  postXml,
  signedAnecf,
  signedEcf,
  signedRfce,
  waitForResult,
  type TIssuer,
  type TSimulatorHarness,
} from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
const issuer = issuerFor('131880738');
const other = issuerFor('130862346');
const tokens: Record<string, string> = {};

before(async () => {
  harness = await openSimulator();
  tokens['issuer'] = await authenticate(harness.baseUrl, 'testecf', issuer);
  tokens['other'] = await authenticate(harness.baseUrl, 'testecf', other);
});
after(async () => {
  await harness.close();
});

const annulUrl = (): string => `${harness.baseUrl}/testecf/anulacionrangos/api/operaciones/anularrango`;

/** An ANECF whose unsigned XML is edited by `edit` before signing (to build what our builder refuses). */
function editedAnecf(signer: TIssuer, ranges: TAnnulmentRange[], edit: (xml: string) => string): string {
  const built = buildAnecfXml({ rncEmisor: signer.rnc, annulledAt: '02-04-2026 09:00:00', ranges });
  if (!built.success) throw new Error(built.issues.map((issue) => issue.message).join('; '));
  return signXml(edit(built.data), signer.certificate).xml;
}

async function annul(
  xml: string,
  token = tokens['issuer'],
): Promise<{ status: number; body: Awaited<ReturnType<typeof jsonOf>> }> {
  const response = await postXml(annulUrl(), xml, { token, fileName: '131880738.xml' });
  return { status: response.status, body: await jsonOf(response) };
}

async function receive(
  signer: TIssuer,
  encf: string,
  token: string | undefined,
): Promise<Record<string, unknown>> {
  const ecf = signedEcf(signer, { encf });
  const sent = await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, ecf.xml, {
    fileName: ecf.fileName,
    token,
  });
  const { trackId } = (await jsonOf(sent)) as { trackId: string };
  return waitForResult(harness.baseUrl, 'testecf', token ?? '', trackId);
}

async function inject(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${harness.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  assert.equal(response.status, 201, await response.clone().text());
}

test('structure, order and counts are judged before anything is annulled', async () => {
  const range: TAnnulmentRange[] = [{ type: '31', from: 'E310000001000', to: 'E310000001009' }];

  // XSD: an element the XSD does not know.
  let result = await annul(
    editedAnecf(issuer, range, (xml) => xml.replace('<Version>', '<Extra>1</Extra><Version>')),
  );
  assert.equal(result.status, 400);
  assert.equal(result.body.codigo, '2');
  assert.match(result.body.mensajes[0], /^La estructura del archivo XML no es válido/);

  // Not XML at all.
  result = await annul('esto no es XML');
  assert.deepEqual(result.body.mensajes, ['Tipo de archivo no valido, favor proveer un XML']);

  // Reversed range (our builder refuses it, so it is edited in).
  result = await annul(
    editedAnecf(issuer, range, (xml) =>
      xml
        .replace('<SecuenciaeNCFDesde>E310000001000', '<SecuenciaeNCFDesde>E310000001009')
        .replace('<SecuenciaeNCFHasta>E310000001009', '<SecuenciaeNCFHasta>E310000001000'),
    ),
  );
  assert.equal(result.status, 400);
  assert.deepEqual(result.body.mensajes, [
    'El valor del campoSecuenciaeNCFDesde es mayor al del campo SecuenciaeNCFHasta: E310000001009 - E310000001000',
  ]);

  // A range of another type's prefix under TipoeCF 31.
  result = await annul(editedAnecf(issuer, range, (xml) => xml.replaceAll('E3100000010', 'E3200000010')));
  assert.deepEqual(result.body.mensajes, [
    'El tipo de comprobante no es válido: E320000001000 - E320000001009',
  ]);

  // NoLinea out of order.
  result = await annul(
    editedAnecf(issuer, range, (xml) => xml.replace('<NoLinea>1</NoLinea>', '<NoLinea>2</NoLinea>')),
  );
  assert.ok(result.body.mensajes.includes('El campo NoLinea no es válido, no cumple orden secuencial.'));

  // Counts that are not the ranges' sizes (detail, then header).
  result = await annul(
    editedAnecf(issuer, range, (xml) =>
      xml.replaceAll('<CantidadeNCFAnulados>10<', '<CantidadeNCFAnulados>9<'),
    ),
  );
  assert.equal(result.status, 400);
  assert.deepEqual(result.body.mensajes, [
    'El campo CantidadeNCFAnulados no corresponde con la cantidad de secuencias a anular: NoLinea 1',
  ]);
  result = await annul(
    editedAnecf(issuer, range, (xml) =>
      xml.replace('<CantidadeNCFAnulados>10<', '<CantidadeNCFAnulados>11<'),
    ),
  );
  assert.deepEqual(result.body.mensajes, [
    'El campo CantidadeNCFAnulados no corresponde con la cantidad de secuencias a anular',
  ]);

  // None of these annulled anything: an e-NCF of the range is still free.
  assert.equal((await receive(issuer, 'E310000001005', tokens['issuer']))['estado'], 'Aceptado');
});

test('only the issuer’s own e-NCF count as used; a used RFCE blocks a type 32 range', async () => {
  // Another issuer used E310000002005: this issuer's range is still annulled.
  assert.equal((await receive(other, 'E310000002005', tokens['other']))['estado'], 'Aceptado');
  let result = await annul(signedAnecf(issuer, [{ type: '31', from: 'E310000002000', to: 'E310000002009' }]));
  assert.equal(result.status, 200);
  assert.equal(result.body.codigo, '1');
  // ...and the annulment is the issuer's only: the other issuer still receives its numbers.
  assert.equal((await receive(other, 'E310000002006', tokens['other']))['estado'], 'Aceptado');
  const annulled = await receive(issuer, 'E310000002006', tokens['issuer']);
  assert.equal(annulled['estado'], 'Rechazado');
  assert.equal(annulled['secuenciaUtilizada'], true);

  // Another issuer cannot annul in this issuer's name (token and signer must be the RncEmisor).
  result = await annul(
    signedAnecf(issuer, [{ type: '31', from: 'E310000002100', to: 'E310000002109' }]),
    tokens['other'],
  );
  assert.deepEqual(result.body.mensajes, [
    'El RNC del certificado no está delegado para realizar transacciones para el RNC',
  ]);

  // Type 32: a summary (RFCE) received through the fc host uses its number too.
  const summary = signedRfce(issuer, { encf: 'E320000002001' });
  const sent = await postXml(`${harness.baseUrl}/testecf/recepcionfc/api/recepcion/ecf`, summary.xml, {
    fileName: summary.fileName,
    token: tokens['issuer'],
  });
  assert.equal((await jsonOf(sent)).estado, 'Aceptado');
  result = await annul(signedAnecf(issuer, [{ type: '32', from: 'E320000002000', to: 'E320000002009' }]));
  assert.equal(result.status, 400);
  assert.equal(result.body.codigo, '2');
  assert.deepEqual(result.body.mensajes, [
    'No fue posible anular las siguientes secuencias: E320000002000 - E320000002009',
    'Las secuencias que está intentando anular han sido utilizadas',
  ]);
});

test('the partial_annulment fault keeps the last e-NCF out: codigo 3, the rest annulled', async () => {
  await inject({ environment: 'testecf', service: 'anulacionrangos', fault: 'partial_annulment', count: 1 });
  let result = await annul(
    signedAnecf(issuer, [
      { type: '31', from: 'E310000003000', to: 'E310000003004' },
      { type: '31', from: 'E310000003010', to: 'E310000003014' },
    ]),
  );
  assert.equal(result.status, 200);
  assert.deepEqual(result.body, {
    rnc: '131880738',
    codigo: '3',
    nombre: 'Aceptado Parcialmente',
    mensajes: [
      'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
      'No fue posible anular las siguientes secuencias: E310000003014 - E310000003014',
    ],
  });
  // Annulled: later receptions are refused; the kept e-NCF is still usable.
  const refused = await receive(issuer, 'E310000003002', tokens['issuer']);
  assert.equal(refused['estado'], 'Rechazado');
  assert.deepEqual(refused['mensajes'], [
    { valor: 'El e-NCF E310000003002 fue anulado y no puede ser utilizado', codigo: 8 },
  ]);
  assert.equal((await receive(issuer, 'E310000003013', tokens['issuer']))['estado'], 'Rechazado');
  assert.equal((await receive(issuer, 'E310000003014', tokens['issuer']))['estado'], 'Aceptado');

  // The fault was consumed: the next annulment is whole again.
  result = await annul(signedAnecf(issuer, [{ type: '31', from: 'E310000003100', to: 'E310000003100' }]));
  assert.equal(result.body.codigo, '1');
});

test('a lost answer still annuls: the client hears nothing, the e-NCF are annulled', async () => {
  await inject({ environment: 'testecf', service: 'anulacionrangos', fault: 'lose_answer', count: 1 });
  await assert.rejects(
    postXml(annulUrl(), signedAnecf(issuer, [{ type: '31', from: 'E310000004000', to: 'E310000004009' }]), {
      token: tokens['issuer'],
    }),
  );
  const refused = await receive(issuer, 'E310000004009', tokens['issuer']);
  assert.equal(refused['estado'], 'Rechazado');
  // The same ANECF again: an annulled range contains no used e-NCF, so it is accepted again.
  const again = await annul(
    signedAnecf(issuer, [{ type: '31', from: 'E310000004000', to: 'E310000004008' }]),
  );
  assert.equal(again.body.codigo, '1');
});
