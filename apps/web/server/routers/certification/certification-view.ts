/**
 * The certification use-cases' views as the pages show them: the tax authority's answers (JSON as
 * stored) turned into lists of messages and one line of text, nothing the page has no use for.
 */
import type {
  TCertificationApprovalsView,
  TCertificationCaseView,
  TCertificationRunView,
} from '@ecf/services';
import type { z } from 'zod';
import type { ZApprovalsView, ZCaseView, ZRunItem, ZRunSummary, ZRunView } from './certification.schema.ts';

type TJson = unknown;
/** A run without its items, as the case lists it. */
type TCertificationRunSummary = TCertificationCaseView['runs'][number];

function recordOf(value: TJson): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const scalarText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/** `{ codigo, valor }` (or `{ code, message }`) items of a list. */
export function messagesOf(list: TJson): Array<{ code: string; message: string }> {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const record = recordOf(item);
    const message = scalarText(record['valor'] ?? record['message'] ?? record['mensaje']);
    return message === '' ? [] : [{ code: scalarText(record['codigo'] ?? record['code']), message }];
  });
}

/** `code: message` of an error record, or null without either. */
function problemOf(value: TJson): string | null {
  const record = recordOf(value);
  const text = [scalarText(record['code']), scalarText(record['message'])].filter(Boolean).join(': ');
  return text === '' ? null : text;
}

function failureOf(value: TJson): z.infer<typeof ZRunSummary>['failure'] {
  if (value === null || value === undefined) return null;
  const record = recordOf(value);
  const row = record['row'];
  return {
    code: scalarText(record['code']) || 'UNKNOWN',
    message: scalarText(record['message']),
    encf: scalarText(record['encf']) || null,
    row: typeof row === 'number' && Number.isInteger(row) ? row : null,
    messages: messagesOf(record['messages'] ?? recordOf(record['detail'])['messages']),
  };
}

export function runSummaryOf(run: TCertificationRunSummary): z.infer<typeof ZRunSummary> {
  return {
    runId: run.runId,
    part: run.part,
    source: run.source,
    state: run.state as z.infer<typeof ZRunSummary>['state'],
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    replacedAt: run.replacedAt,
    totals: run.totals,
    failure: failureOf(run.failure),
  };
}

function itemOf(item: TCertificationRunView['items'][number]): z.infer<typeof ZRunItem> {
  // A rejection keeps the tax authority's messages on the item (`detail.messages`) and the document.
  const messages = messagesOf(item.taxauthMessages);
  const detail = recordOf(item.detail);
  return {
    position: item.position,
    row: item.row,
    caseRef: item.caseRef,
    type: item.type,
    encf: item.encf,
    dependsOn: item.dependsOn,
    state: item.state,
    documentId: item.documentId,
    documentStatus: item.documentStatus,
    trackId: item.trackId,
    taxauthMessages: messages.length > 0 ? messages : messagesOf(detail['messages']),
    problem:
      item.state === 'rejected' && messages.length > 0
        ? null
        : (problemOf(item.detail) ?? (item.state === 'accepted' ? null : problemOf(item.lastError))),
  };
}

export function runViewOf(run: TCertificationRunView): z.infer<typeof ZRunView> {
  return { ...runSummaryOf(run), items: run.items.map(itemOf) };
}

/**
 * The tax authority's answer to an ACECF as one line: `{ codigo, estado, mensajes[] }`, with
 * `error` when no well-formed answer came.
 */
function answerOf(value: TJson): string | null {
  if (value === null || value === undefined) return null;
  const record = recordOf(value);
  const mensajes = Array.isArray(record['mensajes'])
    ? record['mensajes'].map((message) =>
        typeof message === 'string' ? message : (messagesOf([message])[0]?.message ?? ''),
      )
    : [];
  const error = recordOf(record['error']);
  const parts = [scalarText(record['estado']), ...mensajes, scalarText(error['message'])].filter(Boolean);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** Why a send failed: its first rejection, as the page says it. */
function approvalsFailureOf(value: TJson): string | null {
  if (value === null || value === undefined) return null;
  const record = recordOf(value);
  const encf = scalarText(record['encf']);
  if (encf !== '') {
    const answer = answerOf(record['answer']);
    return `La DGII rechazó la aprobación comercial de ${encf} (fila ${scalarText(record['row']) || '?'})${answer === null ? '' : `: ${answer}`}.`;
  }
  return problemOf(value);
}

export function approvalsViewOf(send: TCertificationApprovalsView): z.infer<typeof ZApprovalsView> {
  return {
    sendId: send.sendId,
    state: send.state as z.infer<typeof ZApprovalsView>['state'],
    createdAt: send.createdAt,
    startedAt: send.startedAt,
    finishedAt: send.finishedAt,
    totals: send.totals,
    failure: approvalsFailureOf(send.failure),
    items: send.items.map((item) => ({
      position: item.position,
      row: item.row,
      issuerRnc: item.issuerRnc,
      encf: item.encf,
      estado: item.estado,
      state: item.state,
      sentAt: item.sentAt,
      answer: answerOf(item.answer),
    })),
  };
}

export function caseViewOf(view: TCertificationCaseView): z.infer<typeof ZCaseView> {
  return {
    caseId: view.caseId,
    state: view.state,
    step: view.step,
    createdAt: view.createdAt,
    approvedAt: view.approvedAt,
    steps: view.steps,
    nextAction: view.nextAction,
    runs: view.runs.map(runSummaryOf),
    commercialApprovals: view.commercialApprovals === null ? null : approvalsViewOf(view.commercialApprovals),
    production: view.production,
    serviceUrls: view.serviceUrls,
  };
}
