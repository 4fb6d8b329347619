import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as printing from '@ecf/printing';
import { loadPrinting, type TPrintingModule } from './printing-module.ts';

// Compile time: the real package satisfies the shape the services load lazily.
const real: TPrintingModule = printing;

test('the lazily loaded printing package is the real one', async () => {
  const loaded = await loadPrinting();
  assert.equal(loaded.renderPrintedRepresentation, real.renderPrintedRepresentation);
  assert.equal(loaded.formatAmount('1234567.50'), '1,234,567.50');
  assert.equal(loaded.ECF_TYPE_NAMES['32'], 'Factura de Consumo Electrónica');
});
