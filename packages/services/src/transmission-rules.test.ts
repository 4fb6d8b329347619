import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRfceXml } from '@ecf/fiscal-core';
import { contingencyWaitSeconds, pollWaitSeconds, readSignedEcfTree } from './transmission-rules.ts';
import { buildEcfXml } from './transmission-test-support.ts';

test('contingency waits: 5 minutes, doubling, at most 30 minutes', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 50].map(contingencyWaitSeconds), [300, 600, 1200, 1800, 1800, 1800]);
});

test('result polling waits grow with the time already waited, between 1 s and 5 minutes', () => {
  assert.deepEqual([0, 1000, 10_000, 120_000, 86_400_000].map(pollWaitSeconds), [1, 1, 5, 60, 300]);
});

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
