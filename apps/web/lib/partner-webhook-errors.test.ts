// Each Partner webhook failure names the action and, when known, the reason, in Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partnerWebhookErrorMessage } from './partner-webhook-errors.ts';

test('a failed Partner webhook action says what failed and why', () => {
  assert.equal(
    partnerWebhookErrorMessage(
      { appCode: 'WEBHOOK_REPLAY_NOT_ALLOWED', code: 'CONFLICT', fieldErrors: {} },
      'replay',
    ),
    'No se pudo reenviar la entrega: solo se reenvía una entrega fallida de un endpoint activo. Si el endpoint está pausado, reanúdelo primero.',
  );
  assert.equal(
    partnerWebhookErrorMessage(
      { appCode: 'WEBHOOK_ENDPOINT_RETIRED', code: 'CONFLICT', fieldErrors: {} },
      'pause',
      'ERP',
    ),
    'No se pudo pausar el endpoint «ERP»: el endpoint ya fue eliminado: no recibe eventos ni se puede cambiar.',
  );
  assert.match(
    partnerWebhookErrorMessage(
      { appCode: 'INVALID_REQUEST', code: 'BAD_REQUEST', fieldErrors: { url: 'x' } },
      'create',
    ),
    /^No se pudo crear el endpoint: revise los campos marcados\.$/,
  );
  // Unknown: still the action, never English or a code.
  const unknown = partnerWebhookErrorMessage(
    { appCode: null, code: 'INTERNAL_SERVER_ERROR', fieldErrors: {} },
    'delete',
  );
  assert.match(unknown, /^No se pudo eliminar el endpoint\. Inténtelo de nuevo/);
  assert.doesNotMatch(unknown, /INTERNAL|error/i);
});
