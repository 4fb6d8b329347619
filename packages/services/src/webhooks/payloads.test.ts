// The two payloads: built from outbox rows, checked by their zod schemas (the contract the docs
// show). The Partner payload is built and tested now; its routes come with the Partner API issue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildDirectWebhookPayload,
  buildPartnerWebhookPayload,
  buildWebhookTestBody,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  type TWebhookEventRecord,
} from './payloads.ts';

const tenantId = '6a1f6f5e-36a4-4a63-9a3f-0d3c1f1e2a10';
const documentId = 'a3d8e0c2-5b1f-4c1e-8f55-2d6a7c9b0e11';
const episodeId = 'c0a8012e-7d3b-4b8e-9f1a-3e5d6c7b8a90';

function documentEvent(
  type: string,
  sequence: string,
  status: string,
  extra: Record<string, unknown> = {},
): TWebhookEventRecord {
  return {
    id: crypto.randomUUID(),
    sequence,
    type,
    tenantId,
    environment: 'eCF',
    documentId,
    episodeId: null,
    createdAt: new Date('2026-11-25T10:00:00.000Z'),
    data: {
      document: { id: documentId, type: 31, encf: 'E310000000001', status, trackId: null },
      fromStatus: null,
      lastError: null,
      securityCode: null,
      signatureDate: null,
      qrUrl: null,
      contingencySince: null,
      ...extra,
    },
  };
}

test('direct payload of each document event: document snapshot and data {severity, message, payload}', () => {
  const queued = buildDirectWebhookPayload(documentEvent('ecf.queued', '1', 'queued_for_signing'), tenantId);
  assert.deepEqual(queued.document, {
    id: documentId,
    type: 'E31',
    encf: 'E310000000001',
    status: 'queued_for_signing',
    trackId: null,
  });
  assert.equal(queued.data.severity, 'info');
  assert.deepEqual(queued.data.payload, {});

  const contingency = buildDirectWebhookPayload(
    documentEvent('document.state_changed', '2', 'contingency', {
      fromStatus: 'sent',
      lastError: { code: 'TAXAUTH_UNAVAILABLE', retrying: true },
      securityCode: 'ABC123',
      signatureDate: '2026-11-25T09:59:00.123+00:00',
      qrUrl: 'https://ecf.dgii.gov.do/qr',
    }),
    tenantId,
  );
  assert.equal(contingency.data.severity, 'warning');
  assert.deepEqual(contingency.data.payload, {
    fromStatus: 'sent',
    status: 'contingency',
    lastError: { code: 'TAXAUTH_UNAVAILABLE', retrying: true },
    printing: {
      pdfUrl: `/eCF/documentos-ecf/${documentId}/pdf`,
      securityCode: 'ABC123',
      qrUrl: 'https://ecf.dgii.gov.do/qr',
      signatureDate: '2026-11-25T09:59:00.123Z',
    },
    printingStatus: 'deliverable',
  });
  // In a final state lastError is null, like the status batch.
  const rejected = buildDirectWebhookPayload(
    documentEvent('document.state_changed', '3', 'rejected', { lastError: { code: 'X' } }),
    tenantId,
  );
  assert.equal(rejected.data.severity, 'error');
  assert.equal(rejected.data.payload.lastError, null);
});

test('direct payload of the outage events and of webhook.test: no document', () => {
  const event: TWebhookEventRecord = {
    id: crypto.randomUUID(),
    sequence: '9',
    type: 'taxauth.service_restored',
    tenantId: null,
    environment: 'TesteCF',
    documentId: null,
    episodeId,
    createdAt: new Date('2026-11-25T10:00:00.000Z'),
    data: {
      episodeId,
      code: 'TAXAUTH_TIMEOUT',
      service: 'recepcion',
      degradedSince: '2026-11-25T09:00:00+00:00',
      restoredAt: '2026-11-25T09:30:00+00:00',
    },
  };
  const restored = buildDirectWebhookPayload(event, tenantId);
  assert.equal(restored.tenantId, tenantId);
  assert.equal(restored.document, null);
  assert.deepEqual(restored.data.payload, {
    since: '2026-11-25T09:30:00.000Z',
    degradedSince: '2026-11-25T09:00:00.000Z',
    code: 'TAXAUTH_TIMEOUT',
    taxauthEnvironment: 'TesteCF',
  });
  const partner = buildPartnerWebhookPayload(event, {
    fiscalAccountId: tenantId,
    externalTenantId: 'erp-42',
  });
  assert.deepEqual(partner.resource, { kind: 'taxauth_service', id: episodeId, state: 'restored' });
  assert.equal(partner.data.degradedSince, '2026-11-25T09:00:00.000Z');

  const body = buildWebhookTestBody({
    eventId: episodeId,
    createdAt: new Date('2026-11-25T10:00:00.000Z'),
    tenantId,
    environment: 'CerteCF',
  });
  const test_ = ZDirectWebhookPayload.parse(JSON.parse(body.toString('utf8')));
  assert.equal(test_.type, 'webhook.test');
  assert.equal(test_.document, null);
});

test('partner payload: schemaVersion, stateVersion from the outbox sequence, resource with printing and lastError', () => {
  const account = { fiscalAccountId: tenantId, externalTenantId: 'erp-42', correlationId: 'req-1' };
  const signed = buildPartnerWebhookPayload(documentEvent('document.state_changed', '41', 'signed'), account);
  const sent = buildPartnerWebhookPayload(
    {
      ...documentEvent('document.state_changed', '57', 'sent'),
      data: {
        ...documentEvent('x', '0', 'sent').data,
        document: { id: documentId, type: 31, encf: 'E310000000001', status: 'sent', trackId: 'trk' },
      },
    },
    account,
  );
  assert.equal(signed.schemaVersion, 'partner.webhook.v1');
  assert.equal(signed.correlationId, 'req-1');
  assert.ok(sent.stateVersion > signed.stateVersion);
  assert.deepEqual(sent.resource, {
    kind: 'document',
    id: documentId,
    type: 'E31',
    encf: 'E310000000001',
    status: 'sent',
    trackId: 'trk',
    printing: {
      pdfUrl: `/eCF/documentos-ecf/${documentId}/pdf`,
      securityCode: null,
      qrUrl: null,
      signatureDate: null,
    },
    printingStatus: 'deliverable',
    lastError: null,
  });
  assert.equal(signed.resource.kind === 'document' && signed.resource.printing, null);
  assert.equal(
    signed.resource.kind === 'document' && signed.resource.printingStatus,
    'awaiting_taxauth_response',
  );
  // Strict: an unknown property or a missing member is refused.
  assert.equal(ZPartnerWebhookPayload.safeParse({ ...signed, extra: 1 }).success, false);
  const { stateVersion: _dropped, ...withoutVersion } = signed;
  assert.equal(ZPartnerWebhookPayload.safeParse(withoutVersion).success, false);
  assert.equal(ZPartnerWebhookPayload.safeParse(JSON.parse(JSON.stringify(sent))).success, true);
});

const annulmentId = 'e7b1c2d3-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

function annulmentEvent(
  sequence: string,
  state: string,
  extra: Record<string, unknown> = {},
): TWebhookEventRecord {
  return {
    id: crypto.randomUUID(),
    sequence,
    type: 'annulment.state_changed',
    tenantId,
    environment: 'TesteCF',
    documentId: null,
    episodeId: null,
    createdAt: new Date('2026-11-25T10:00:00.000Z'),
    data: {
      annulment: { id: annulmentId, state, fromState: 'sending', reconciled: false },
      taxauth: {
        codigo: '1',
        nombre: 'Aceptado',
        mensajes: ['Las secuencias fueron anuladas correctamente.'],
      },
      coveredDocuments: { cancelled: 2, skipped: 1 },
      answeredAt: '2026-11-25T09:59:59.5-04:00',
      ...extra,
    },
  };
}

test('annulment.state_changed, direct: no document, severity by state, the answer and covered counts', () => {
  const accepted = buildDirectWebhookPayload(annulmentEvent('7', 'accepted'), tenantId);
  assert.equal(accepted.document, null);
  assert.deepEqual(accepted.data, {
    severity: 'info',
    message: `Annulment ${annulmentId} is now accepted.`,
    payload: {
      annulmentId,
      state: 'accepted',
      fromState: 'sending',
      reconciled: false,
      taxauth: {
        codigo: '1',
        nombre: 'Aceptado',
        mensajes: ['Las secuencias fueron anuladas correctamente.'],
      },
      coveredDocuments: { cancelled: 2, skipped: 1 },
      answeredAt: '2026-11-25T13:59:59.500Z',
    },
  });
  assert.ok(ZDirectWebhookPayload.safeParse(accepted).success);

  // No answer at all (lost answer): taxauth null; uncertain is a warning that says not to resend.
  const uncertain = buildDirectWebhookPayload(
    annulmentEvent('8', 'uncertain', { taxauth: null, coveredDocuments: null, answeredAt: null }),
    tenantId,
  );
  assert.equal(uncertain.data.severity, 'warning');
  assert.match(uncertain.data.message, /do not resend/);
  assert.equal(uncertain.data.payload['taxauth'], null);
  assert.equal(uncertain.data.payload['coveredDocuments'], null);

  // Messages as objects ({ valor }) are flattened to their text; rejected and failed are errors.
  const rejected = buildDirectWebhookPayload(
    annulmentEvent('9', 'rejected', {
      taxauth: {
        codigo: 2,
        nombre: 'Rechazado',
        mensajes: [{ valor: 'La firma del documento no es válida' }],
      },
    }),
    tenantId,
  );
  assert.equal(rejected.data.severity, 'error');
  assert.deepEqual(rejected.data.payload['taxauth'], {
    codigo: '2',
    nombre: 'Rechazado',
    mensajes: ['La firma del documento no es válida'],
  });
  assert.equal(buildDirectWebhookPayload(annulmentEvent('10', 'failed'), tenantId).data.severity, 'error');

  // A state the event never announces is a bug: the fan-out fails loudly.
  assert.throws(() => buildDirectWebhookPayload(annulmentEvent('11', 'sending'), tenantId));
});

test('annulment.state_changed, partner: resource {kind annulment, id, state}, stateVersion from the sequence', () => {
  const payload = buildPartnerWebhookPayload(annulmentEvent('42', 'uncertain'), {
    fiscalAccountId: tenantId,
    externalTenantId: 'erp-17',
  });
  assert.ok(ZPartnerWebhookPayload.safeParse(payload).success);
  assert.deepEqual(payload.resource, { kind: 'annulment', id: annulmentId, state: 'uncertain' });
  assert.equal(payload.stateVersion, 42);
  assert.equal(payload.type, 'annulment.state_changed');
  assert.deepEqual(payload.data, {
    fromState: 'sending',
    reconciled: false,
    taxauth: { codigo: '1', nombre: 'Aceptado', mensajes: ['Las secuencias fueron anuladas correctamente.'] },
    coveredDocuments: { cancelled: 2, skipped: 1 },
    answeredAt: '2026-11-25T13:59:59.500Z',
  });
  assert.equal(
    ZPartnerWebhookPayload.safeParse({ ...payload, resource: { ...payload.resource, state: 'built' } })
      .success,
    false,
  );
});
