import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TTaxauthTree } from '@ecf/certification-sets';
import { XSD_ORDER_TABLES, type TXsdOrderTable } from '@ecf/fiscal-core';
import { compareLeaves, leavesOfTree, leavesOfXml, mismatchText } from './literal-comparison.ts';
import { workbookFileName } from './portal.ts';
import { serviceUrlOf } from './reception-tests.ts';
import { currentStepOf, missingBefore, restartedFrom, withCompleted } from './steps.ts';

const E31 = XSD_ORDER_TABLES['E31'] as TXsdOrderTable;
const RFCE = XSD_ORDER_TABLES['RFCE'] as TXsdOrderTable;

const SIGNATURE =
  '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><Reference URI=""><DigestValue>abc</DigestValue></Reference></SignedInfo><SignatureValue>xyz</SignatureValue></Signature>';

test('leaves of a tree and of the XML match by path and occurrence, named as the workbook names the columns', () => {
  const tree: TTaxauthTree = {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: {
          TablaFormasPago: { FormaDePago: [{ FormaPago: '1', MontoPago: '10.00' }, { FormaPago: '2' }] },
        },
        Emisor: { TablaTelefonoEmisor: { TelefonoEmisor: ['809-000-0001', '809-000-0002'] } },
      },
      DetallesItems: {
        Item: [
          {
            CantidadItem: '15.00',
            TablaCodigosItem: { CodigosItem: [{ TipoCodigo: 'EAN' }, { TipoCodigo: 'INT' }] },
          },
        ],
      },
    },
  };
  const expected = leavesOfTree(tree, E31);
  assert.deepEqual(
    expected.map((leaf) => `${leaf.field}=${leaf.value}`),
    [
      'Version=1.0',
      'FormaPago[1]=1',
      'MontoPago[1]=10.00',
      'FormaPago[2]=2',
      'TelefonoEmisor[1]=809-000-0001',
      'TelefonoEmisor[2]=809-000-0002',
      'CantidadItem[1]=15.00',
      'TipoCodigo[1][1]=EAN',
      'TipoCodigo[1][2]=INT',
    ],
  );
  const xml =
    '<?xml version="1.0" encoding="utf-8"?><ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Encabezado><Version>1.0</Version>' +
    '<IdDoc><TablaFormasPago><FormaDePago><FormaPago>1</FormaPago><MontoPago>10.00</MontoPago></FormaDePago><FormaDePago><FormaPago>2</FormaPago></FormaDePago></TablaFormasPago></IdDoc>' +
    '<Emisor><TablaTelefonoEmisor><TelefonoEmisor>809-000-0001</TelefonoEmisor><TelefonoEmisor>809-000-0002</TelefonoEmisor></TablaTelefonoEmisor></Emisor></Encabezado>' +
    '<DetallesItems><Item><CantidadItem>15.00</CantidadItem><TablaCodigosItem><CodigosItem><TipoCodigo>EAN</TipoCodigo></CodigosItem><CodigosItem><TipoCodigo>INT</TipoCodigo></CodigosItem></TablaCodigosItem></Item></DetallesItems>' +
    `<FechaHoraFirma>21-11-2026 11:00:00</FechaHoraFirma>${SIGNATURE}</ECF>`;
  const received = leavesOfXml(xml, E31);
  assert.ok(received !== undefined);
  assert.deepEqual(compareLeaves(expected, received, { ignored: new Set(['FechaHoraFirma']) }), []);
  assert.ok(
    received.every((leaf) => !['DigestValue', 'SignatureValue'].includes(leaf.field)),
    'the signature is not compared',
  );
});

test('a different text, a missing element and an extra element are each a difference; amounts compare as amounts', () => {
  const expected = leavesOfTree(
    {
      ECF: {
        Encabezado: { Totales: { MontoTotal: '118.00', TotalITBIS: '18.00' } },
        DetallesItems: { Item: [{ CantidadItem: '15.00' }] },
      },
    },
    E31,
  );
  const received = leavesOfXml(
    '<ECF><Encabezado><Totales><MontoTotal>118.00</MontoTotal><MontoExento>0.00</MontoExento></Totales></Encabezado>' +
      '<DetallesItems><Item><CantidadItem>15</CantidadItem></Item></DetallesItems></ECF>',
    E31,
  );
  assert.ok(received !== undefined);
  const mismatches = compareLeaves(expected, received);
  assert.deepEqual(mismatches, [
    { field: 'TotalITBIS', expected: '18.00', received: null },
    { field: 'CantidadItem[1]', expected: '15.00', received: '15' },
    { field: 'MontoExento', expected: null, received: '0.00' },
  ]);
  assert.deepEqual(mismatches.map(mismatchText), [
    'El valor del campo TotalITBIS (18.00) no coincide con el valor ()',
    'El valor del campo CantidadItem[1] (15.00) no coincide con el valor (15)',
    'El valor del campo MontoExento () no coincide con el valor (0.00)',
  ]);
  const amounts = new Set(['MontoTotal']);
  const approval = leavesOfTree(
    { ACECF: { DetalleAprobacionComercial: { MontoTotal: '7080', Estado: '1' } } },
    undefined,
  );
  const sent = leavesOfXml(
    '<ACECF><DetalleAprobacionComercial><MontoTotal>7080.00</MontoTotal><Estado>1.0</Estado></DetalleAprobacionComercial></ACECF>',
    undefined,
  );
  assert.ok(sent !== undefined);
  assert.deepEqual(compareLeaves(approval, sent, { amounts }), [
    { field: 'Estado', expected: '1', received: '1.0' },
  ]);
  const otherAmount = leavesOfXml(
    '<ACECF><DetalleAprobacionComercial><MontoTotal>7080.01</MontoTotal><Estado>1</Estado></DetalleAprobacionComercial></ACECF>',
    undefined,
  );
  assert.deepEqual(compareLeaves(approval, otherAmount ?? [], { amounts }), [
    { field: 'MontoTotal', expected: '7080', received: '7080.01' },
  ]);
});

test('the XML reader decodes entities and CDATA, keeps empty elements and refuses what is not one element tree', () => {
  const leaves = leavesOfXml(
    '\uFEFF<RFCE><Encabezado><Emisor><RazonSocialEmisor>A &amp; B &#233;</RazonSocialEmisor></Emisor><Comprador/>' +
      '<Totales><MontoTotal><![CDATA[1.00]]></MontoTotal></Totales><CodigoSeguridadeCF>Ab1+Z/</CodigoSeguridadeCF></Encabezado></RFCE>',
    RFCE,
  );
  assert.deepEqual(
    leaves?.map((leaf) => `${leaf.field}=${leaf.value}`),
    ['RazonSocialEmisor=A & B é', 'Comprador=', 'MontoTotal=1.00', 'CodigoSeguridadeCF=Ab1+Z/'],
  );
  assert.equal(leavesOfXml('<A><B>1</C></A>', undefined), undefined);
  assert.equal(leavesOfXml('<A><B>1</B>', undefined), undefined);
  assert.equal(leavesOfXml('<A/><B/>', undefined), undefined);
  assert.equal(leavesOfXml('text', undefined), undefined);
});

test('steps: current, missing before, completed once, restarted from a step', () => {
  const at = new Date('2026-11-21T15:00:00Z');
  let completed = withCompleted({}, ['registered', 'data_tests_ecf'], at);
  assert.equal(currentStepOf(completed), 'data_tests_commercial_approval');
  assert.deepEqual(missingBefore('simulation_ecf', completed), ['data_tests_commercial_approval']);
  completed = withCompleted(completed, ['data_tests_ecf'], new Date('2027-01-01T00:00:00Z'));
  assert.equal(completed.data_tests_ecf, at.toISOString(), 'a step keeps its first completion');
  assert.deepEqual(Object.keys(restartedFrom(completed, 'data_tests_ecf')), ['registered']);
});

test('service URLs: the registered base with the tax authority path, kept when already there', () => {
  assert.equal(
    serviceUrlOf('https://ecf.example.do/CerteCF', '/fe/recepcion/api/ecf'),
    'https://ecf.example.do/CerteCF/fe/recepcion/api/ecf',
  );
  assert.equal(
    serviceUrlOf('https://ecf.example.do/CerteCF/fe/recepcion/api/ecf/', '/fe/recepcion/api/ecf'),
    'https://ecf.example.do/CerteCF/fe/recepcion/api/ecf',
  );
  assert.equal(
    serviceUrlOf('https://ecf.example.do', '/fe/aprobacioncomercial/api/ecf'),
    'https://ecf.example.do/fe/aprobacioncomercial/api/ecf',
  );
  assert.equal(serviceUrlOf('ftp://ecf.example.do', '/fe/recepcion/api/ecf'), undefined);
  assert.equal(serviceUrlOf('not a url', '/fe/recepcion/api/ecf'), undefined);
  assert.equal(
    workbookFileName('131880738', new Date('2026-11-21T15:04:05Z')),
    '131880738-21112026110405.xlsx',
  );
});
