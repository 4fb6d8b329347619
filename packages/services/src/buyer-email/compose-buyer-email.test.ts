import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPrinting } from '../documents/index.ts';
import { composeBuyerEmail } from './compose-buyer-email.ts';

test('the e-mail is Spanish: type name and eNCF in the subject; issuer, total, link and expiry in the body', async () => {
  const message = composeBuyerEmail(
    {
      type: 31,
      encf: 'E310000000101',
      issuerName: 'Caribe Digital',
      buyerName: 'Ferretería Los Pinos SRL',
      total: '1234567.50',
      link: 'https://ecf.example/ri/abc.def',
      expiresAt: new Date('2026-05-01T03:00:00Z'),
      environment: 'eCF',
    },
    await loadPrinting(),
  );
  assert.equal(message.subject, 'Factura de Crédito Fiscal Electrónica E310000000101 de Caribe Digital');
  assert.match(message.text, /Ferretería Los Pinos SRL/);
  assert.match(message.text, /RD\$ 1,234,567\.50/);
  assert.match(message.text, /https:\/\/ecf\.example\/ri\/abc\.def/);
  // 03:00 UTC is still 30 April in Santo Domingo.
  assert.match(message.text, /válido hasta el 30-04-2026/);
  assert.doesNotMatch(message.text, /sin validez fiscal/);
  assert.match(message.html, /href="https:\/\/ecf\.example\/ri\/abc\.def"/);
});
