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
import { PARTNER_WEBHOOK_EVENT_TYPES } from '@ecf/contract';

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
  const account = { fiscalAccountId: tenantId, externalTenantId: 'erp-42' };
  const signed = buildPartnerWebhookPayload(
    { ...documentEvent('document.state_changed', '41', 'signed'), correlationId: 'req-1' },
    account,
  );
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
  // The outbox row's correlation id (the request that caused the change); none: null.
  assert.equal(signed.correlationId, 'req-1');
  assert.equal(sent.correlationId, null);
  // The Partner API's name of the environment, as its routes and answers spell it.
  assert.equal(signed.environment, 'production');
  assert.ok(sent.stateVersion > signed.stateVersion);
  assert.deepEqual(sent.resource, {
    kind: 'document',
    id: documentId,
    type: 'E31',
    encf: 'E310000000001',
    status: 'sent',
    trackId: 'trk',
    printing: {
      // The Partner route (the direct one needs an X-API-KEY a Partner does not hold).
      pdfUrl: `/partner/v1/fiscal-accounts/${tenantId}/production/documents/${documentId}/pdf`,
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

/** An outbox row of `type` in `environment` with the data its trigger writes (every member filled). */
function sampleEvent(type: string, environment: 'TesteCF' | 'CerteCF' | 'eCF'): TWebhookEventRecord {
  const inbound = {
    id: annulmentId,
    kind: 'ecf',
    status: 'received',
    encf: 'E310000000077',
    ecfType: 31,
    issuerRnc: '131880738',
    issuerName: 'Proveedor SRL',
    buyerRnc: '101672919',
    issueDate: '2026-11-20',
    totalAmount: '1180.00',
    receivedAt: '2026-11-25T09:00:00+00:00',
  };
  const byType: Record<string, Record<string, unknown>> = {
    'ecf.queued': documentEvent(type, '1', 'queued_for_signing').data,
    'document.state_changed': documentEvent(type, '1', 'accepted', {
      document: { id: documentId, type: 31, encf: 'E310000000001', status: 'accepted', trackId: 'trk' },
      securityCode: 'Xk3P9q',
      signatureDate: '2026-11-25T09:59:00.123+00:00',
      qrUrl: `https://ecf.dgii.gov.do/${environment.toLowerCase()}/ConsultaTimbre?RncEmisor=131880738&ENCF=E310000000001`,
    }).data,
    'taxauth.service_degraded': {
      episodeId,
      code: 'TAXAUTH_UNAVAILABLE',
      service: 'recepcion',
      degradedSince: '2026-11-25T09:00:00+00:00',
      restoredAt: null,
    },
    'taxauth.service_restored': {
      episodeId,
      code: 'TAXAUTH_UNAVAILABLE',
      service: 'recepcion',
      degradedSince: '2026-11-25T09:00:00+00:00',
      restoredAt: '2026-11-25T09:30:00+00:00',
    },
    'annulment.state_changed': annulmentEvent('1', 'accepted').data,
    'document.received': { inbound },
    'document.commercial_approval_received': {
      inbound: { ...inbound, kind: 'commercial_approval' },
      approval: {
        decision: 'accepted',
        reason: null,
        approvedAt: '25-11-2026 09:00:00',
        correspondence: null,
      },
      document: { id: documentId, type: 31, encf: 'E310000000001', status: 'accepted', trackId: 'trk' },
    },
    'document.commercial_approval_due': { inbound, deadline: '2026-12-15', daysRemaining: 2 },
    'certificate.validated': {
      certificate: {
        id: episodeId,
        holderId: '131880738',
        subject: 'CN=Cliente',
        serialNumber: '4f2a',
        validFrom: '2026-01-01T00:00:00+00:00',
        validTo: '2026-12-31T00:00:00+00:00',
      },
    },
    'production.state_changed': { production: { state: 'active', fromState: 'pending' } },
    'certification.state_changed': {
      case: {
        id: episodeId,
        state: 'in_progress',
        step: 'data_tests_ecf',
        fromState: null,
        fromStep: null,
        version: 1,
        testSetId: null,
        approvedAt: null,
      },
    },
    'certification.run_completed': {
      run: {
        id: episodeId,
        caseId: annulmentId,
        part: 'data',
        state: 'succeeded',
        source: 'workbook',
        startedAt: '2026-11-25T09:00:00+00:00',
        finishedAt: '2026-11-25T09:10:00+00:00',
      },
      totals: { documents: 2, accepted: 2 },
    },
    'webhook.test': {},
  };
  byType['certificate.expiring'] = byType['certificate.validated']!;
  byType['certificate.expired'] = byType['certificate.validated']!;
  const data = byType[type];
  assert.ok(data, `no sample outbox row for ${type}: add one`);
  return {
    id: crypto.randomUUID(),
    sequence: '5',
    type,
    tenantId,
    environment,
    documentId: type.startsWith('ecf.') || type.startsWith('document.state') ? documentId : null,
    episodeId: type.startsWith('taxauth.') ? episodeId : null,
    createdAt: new Date('2026-11-25T10:00:00.000Z'),
    data,
    correlationId: 'req-7f3a9c',
  };
}

/** Every string of a payload, with its path. */
function stringsOf(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) =>
      stringsOf(item, path === '' ? key : `${path}.${key}`),
    );
  return [];
}

test('every Partner event type in every environment: the Partner API environment name, every link a Partner route or the tax authority, the correlation id', () => {
  const account = { fiscalAccountId: tenantId, externalTenantId: 'erp-42' };
  const partnerNames = { TesteCF: 'testecf', CerteCF: 'certecf', eCF: 'production' } as const;
  let pdfUrls = 0;
  for (const type of PARTNER_WEBHOOK_EVENT_TYPES)
    for (const environment of ['TesteCF', 'CerteCF', 'eCF'] as const) {
      const payload = buildPartnerWebhookPayload(sampleEvent(type, environment), account, documentId);
      assert.equal(payload.environment, partnerNames[environment], `${type} in ${environment}`);
      assert.equal(payload.correlationId, 'req-7f3a9c');
      for (const [path, text] of stringsOf(payload)) {
        if (text.startsWith('/')) {
          // A path of our service: the Partner API's, of this account (a Partner holds no X-API-KEY).
          assert.ok(
            text.startsWith(`/partner/v1/fiscal-accounts/${tenantId}/${partnerNames[environment]}/`),
            `${type} ${environment} ${path}: ${text}`,
          );
          pdfUrls += 1;
        } else if (/^[a-z]+:\/\//i.test(text)) {
          // An absolute link: only the tax authority's public pages (the timbre's QR).
          assert.equal(new URL(text).hostname, 'ecf.dgii.gov.do', `${type} ${environment} ${path}: ${text}`);
        }
      }
    }
  // The accepted document's PDF in TesteCF and eCF (CerteCF hands no PDF to buyers: null).
  assert.equal(pdfUrls, 2);
  // The direct payload keeps the direct route and the tax authority's environment names.
  const direct = buildDirectWebhookPayload(sampleEvent('document.state_changed', 'TesteCF'), tenantId);
  assert.equal(direct.environment, 'TesteCF');
  assert.equal(direct.correlationId, 'req-7f3a9c');
  assert.equal(
    (direct.data.payload['printing'] as { pdfUrl: string }).pdfUrl,
    `/TesteCF/documentos-ecf/${documentId}/pdf`,
  );
});
