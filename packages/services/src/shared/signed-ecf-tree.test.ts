import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRfceXml } from '@ecf/fiscal-core';
import { buildEcfXml } from '../../test/transmission-harness.ts';
import { readSignedEcfTree } from './signed-ecf-tree.ts';

test('a signed e-CF reads back into the tree the RFCE is built from; the Signature is left out', () => {
  const xml = buildEcfXml({ rnc: '131000001', encf: 'E320000000001', lines: 1 }).replace(
    '</ECF>',
    '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><Reference URI=""/></SignedInfo><SignatureValue>abc</SignatureValue></Signature></ECF>',
  );
  const tree = readSignedEcfTree(`<?xml version="1.0" encoding="utf-8"?>${xml}`);
  assert.ok(tree);
  const encabezado = tree.ECF['Encabezado'] as Record<string, Record<string, string>>;
  assert.equal(encabezado['IdDoc']?.['eNCF'], 'E320000000001');
  assert.equal(encabezado['Comprador']?.['RazonSocialComprador'], 'Cliente & Asociados, S.A.');
  assert.equal(tree.ECF['Signature'], undefined);
  const rfce = buildRfceXml(tree, { securityCode: 'Ab1+Z/' });
  assert.ok(rfce.success, JSON.stringify(rfce));
  assert.match(rfce.data, /<MontoTotal>118\.00<\/MontoTotal>/);
  assert.equal(readSignedEcfTree('<RFCE><A>1</A></RFCE>'), undefined);
  assert.equal(readSignedEcfTree('<ECF><A>1</B></ECF>'), undefined);
});
