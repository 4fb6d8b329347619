/**
 * The catalogue against the sources of truth (issue 27, "Plain Spanish"): every code the portal
 * can show has a Spanish text. The lists come from where the codes are defined (the services'
 * error registry, the Prisma enums, the event-type lists, the audit actions, the delivery outcomes,
 * fiscal-core's validation codes), never from copies, so a code added there fails here until it
 * gets its words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AnnulmentState,
  CertificationCaseState,
  CertificationItemState,
  CertificationRunState,
  DocumentStatus,
  InboundStatus,
  MemberRole,
  ProductionState,
  ReceiverDeliveryStatus,
  WebhookAttemptOutcome,
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
} from '@ecf/db';
import {
  ANNULMENT_CONFLICT_REASONS,
  AUDIT_ACTIONS,
  BUYER_EMAIL_EVENT_TYPES,
  ERROR_STATUS,
  RECEIVER_DELIVERY_EVENT_TYPES,
  RECEIVER_DELIVERY_NOT_APPLICABLE_REASONS,
  SUBMISSION_ERROR_CODES,
  SUBMISSION_WARNING_CODES,
  SWEEP_EVENT_TYPE,
  TRANSMISSION_ERROR_CODES,
  TRANSMISSION_EVENT_TYPES,
  WEBHOOK_ATTEMPT_ERROR_CODES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TARGET_REFUSALS,
  WORKBOOK_ERROR_CODES,
  XML_ISSUE_CODES,
} from '@ecf/services';
import {
  DOCUMENT_STATUSES,
  RECEIVED_GROUPS,
  TAXAUTH_VALIDITY_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
} from '@ecf/contract';
import {
  ANNULMENT_STATE_LABELS,
  AUDIT_ACTION_LABELS,
  CERTIFICATION_CASE_STATE_LABELS,
  CERTIFICATION_RUN_STATE_LABELS,
  CONFLICT_REASON_LABELS,
  DELIVERY_STATUS_LABELS,
  DOCUMENT_PROBLEM_TEXTS,
  DOCUMENT_STATUS_LABELS,
  DOCUMENT_STATUS_TONES,
  endSentence,
  ERROR_CODE_TEXTS,
  EVENT_LABELS,
  ITEM_STATE_LABELS,
  labelOf,
  MEMBER_ROLE_LABELS,
  PRODUCTION_LABELS,
  RECEIVED_APPROVAL_STATUS_LABELS,
  RECEIVED_GROUP_LABELS,
  RECEIVER_NOT_APPLICABLE_LABELS,
  splitCodedText,
  supportViewText,
  UNKNOWN_CODE_TEXT,
  VALIDATION_MESSAGES,
  VALIDITY_LABELS,
  WEBHOOK_ATTEMPT_OUTCOME_LABELS,
  WEBHOOK_DELIVERY_STATUS_LABELS,
  WEBHOOK_ENDPOINT_STATUS_LABELS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_FAILURE_TEXTS,
  WORKBOOK_PROBLEM_TEXTS,
} from './catalogue.ts';

/** Words a Spanish text of the portal never holds (an English sentence left behind). */
const ENGLISH = /\b(the|and|not|found|failed|invalid|please|unknown|request|missing|with|is)\b/i;

/** Fails with every code of `codes` that `section` has no non-empty Spanish text for. */
function assertCovers(name: string, section: Readonly<Record<string, string>>, codes: Iterable<string>) {
  const missing: string[] = [];
  const english: string[] = [];
  for (const code of codes) {
    const text = Object.hasOwn(section, code) ? section[code] : undefined;
    if (text === undefined || text.trim() === '') missing.push(code);
    else if (ENGLISH.test(text) || text === code) english.push(`${code}: ${text}`);
  }
  assert.deepEqual(missing, [], `${name}: codes without a Spanish text`);
  assert.deepEqual(english, [], `${name}: texts that are not plain Spanish`);
}

test('every code of the error registry has a Spanish sentence', () => {
  assertCovers('ERROR_CODE_TEXTS', ERROR_CODE_TEXTS, Object.keys(ERROR_STATUS));
});

test('every document status, and every event type of a document log, has a label', () => {
  assertCovers('DOCUMENT_STATUS_LABELS', DOCUMENT_STATUS_LABELS, Object.values(DocumentStatus));
  assertCovers('DOCUMENT_STATUS_LABELS', DOCUMENT_STATUS_LABELS, DOCUMENT_STATUSES);
  assert.deepEqual(Object.keys(DOCUMENT_STATUS_TONES).sort(), Object.values(DocumentStatus).sort());
  assertCovers('EVENT_LABELS', EVENT_LABELS, [
    // The status changes are events of their own name, besides the named ones.
    ...Object.values(DocumentStatus),
    'submitted',
    'signing_deferred',
    'signing_failed',
    SWEEP_EVENT_TYPE,
    ...Object.values(TRANSMISSION_EVENT_TYPES),
    ...Object.values(RECEIVER_DELIVERY_EVENT_TYPES),
    ...Object.values(BUYER_EMAIL_EVENT_TYPES),
  ]);
  assertCovers('DOCUMENT_PROBLEM_TEXTS', DOCUMENT_PROBLEM_TEXTS, Object.values(TRANSMISSION_ERROR_CODES));
});

test('every receiver delivery status and reason it does not apply has a label', () => {
  assertCovers('DELIVERY_STATUS_LABELS', DELIVERY_STATUS_LABELS, Object.values(ReceiverDeliveryStatus));
  assertCovers(
    'RECEIVER_NOT_APPLICABLE_LABELS',
    RECEIVER_NOT_APPLICABLE_LABELS,
    RECEIVER_DELIVERY_NOT_APPLICABLE_REASONS,
  );
});

test('every webhook event type, endpoint and delivery state, attempt outcome and failure has words', () => {
  assertCovers('WEBHOOK_EVENT_LABELS', WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES);
  assertCovers(
    'WEBHOOK_ENDPOINT_STATUS_LABELS',
    WEBHOOK_ENDPOINT_STATUS_LABELS,
    Object.values(WebhookEndpointStatus),
  );
  assertCovers('WEBHOOK_DELIVERY_STATUS_LABELS', WEBHOOK_DELIVERY_STATUS_LABELS, WEBHOOK_DELIVERY_STATUSES);
  assertCovers(
    'WEBHOOK_DELIVERY_STATUS_LABELS',
    WEBHOOK_DELIVERY_STATUS_LABELS,
    Object.values(WebhookDeliveryStatus),
  );
  assertCovers(
    'WEBHOOK_ATTEMPT_OUTCOME_LABELS',
    WEBHOOK_ATTEMPT_OUTCOME_LABELS,
    Object.values(WebhookAttemptOutcome),
  );
  assertCovers('WEBHOOK_FAILURE_TEXTS', WEBHOOK_FAILURE_TEXTS, [
    ...WEBHOOK_ATTEMPT_ERROR_CODES,
    ...WEBHOOK_TARGET_REFUSALS,
    // The reasons a delivery ends failed besides an attempt's error (run-webhook-delivery.ts, persistence/webhooks/webhooks.ts).
    'attempts_exhausted',
    'endpoint_retired',
    'failed',
  ]);
});

test('every audit action has a label', () => {
  assertCovers('AUDIT_ACTION_LABELS', AUDIT_ACTION_LABELS, Object.values(AUDIT_ACTIONS));
});

test('received documents, annulments, certification, roles and production: every state has a label', () => {
  assertCovers('RECEIVED_GROUP_LABELS', RECEIVED_GROUP_LABELS, RECEIVED_GROUPS);
  assertCovers('VALIDITY_LABELS', VALIDITY_LABELS, TAXAUTH_VALIDITY_STATUSES);
  assertCovers(
    'RECEIVED_APPROVAL_STATUS_LABELS',
    RECEIVED_APPROVAL_STATUS_LABELS,
    Object.values(InboundStatus),
  );
  assertCovers('ANNULMENT_STATE_LABELS', ANNULMENT_STATE_LABELS, Object.values(AnnulmentState));
  assertCovers('CONFLICT_REASON_LABELS', CONFLICT_REASON_LABELS, ANNULMENT_CONFLICT_REASONS);
  assertCovers(
    'CERTIFICATION_CASE_STATE_LABELS',
    CERTIFICATION_CASE_STATE_LABELS,
    Object.values(CertificationCaseState),
  );
  assertCovers(
    'CERTIFICATION_RUN_STATE_LABELS',
    CERTIFICATION_RUN_STATE_LABELS,
    Object.values(CertificationRunState),
  );
  assertCovers('ITEM_STATE_LABELS', ITEM_STATE_LABELS, Object.values(CertificationItemState));
  assertCovers('MEMBER_ROLE_LABELS', MEMBER_ROLE_LABELS, Object.values(MemberRole));
  assertCovers('PRODUCTION_LABELS', PRODUCTION_LABELS, Object.values(ProductionState));
});

test('every fiscal-core validation code has a Spanish message', () => {
  assertCovers('VALIDATION_MESSAGES', VALIDATION_MESSAGES, [
    ...Object.values(SUBMISSION_ERROR_CODES),
    ...Object.values(SUBMISSION_WARNING_CODES),
    ...Object.values(XML_ISSUE_CODES),
  ]);
});

test('every certification workbook code has a Spanish message', () => {
  assertCovers('WORKBOOK_PROBLEM_TEXTS', WORKBOOK_PROBLEM_TEXTS, Object.values(WORKBOOK_ERROR_CODES));
});

test('a page never shows a raw code: unknown codes read as a Spanish placeholder', () => {
  assert.equal(labelOf(AUDIT_ACTION_LABELS, 'api_key.created'), 'Creó una clave de API');
  assert.equal(labelOf(AUDIT_ACTION_LABELS, 'something.new'), UNKNOWN_CODE_TEXT);
  assert.equal(labelOf(AUDIT_ACTION_LABELS, 'toString'), UNKNOWN_CODE_TEXT);
  assert.equal(labelOf(AUDIT_ACTION_LABELS, null), '—');
  assert.equal(supportViewText('documents.get'), 'Consulta: Documentos');
  assert.equal(supportViewText('unknown.procedure'), 'Consulta: datos de la cuenta');
});

test('coded texts split into their code and message; sentences end with one period', () => {
  assert.deepEqual(splitCodedText('RECEIVER_UNAVAILABLE: HTTP 503'), {
    code: 'RECEIVER_UNAVAILABLE',
    message: 'HTTP 503',
  });
  assert.deepEqual(splitCodedText('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">'), {
    code: null,
    message: '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">',
  });
  assert.equal(endSentence('desde 27 nov 2026, 9:05 a. m.'), 'desde 27 nov 2026, 9:05 a. m.');
  assert.equal(endSentence('desde ayer'), 'desde ayer.');
});
