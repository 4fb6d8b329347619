/**
 * What the certification routes and the portal show: a run item by item, and a case step by step
 * with the next human action. Shapes shared by the direct API, the Partner API and the portal.
 */
import type {
  CertificationCaseState,
  CertificationStep,
  Environment,
  ProductionState,
  Prisma,
  TDatabase,
} from '@ecf/db';
import {
  findCertificationItems,
  findCertificationRunsOfCase,
  findLatestApprovalSend,
  findApprovalItems,
  findStepCompletions,
  type TApprovalItemRow,
  type TApprovalSendRow,
  type TCertificationCaseRow,
  type TCertificationItemView,
  type TCertificationRunRow,
} from '../persistence/index.ts';
import {
  CERTIFICATION_STEP_INFO,
  CERTIFICATION_STEPS,
  type TStepCompletedBy,
} from './certification-steps.ts';

/** A run item as the API shows it. */
export type TCertificationItemBody = {
  position: number;
  sheet: 'ECF';
  row: number | null;
  caseRef: string | null;
  type: string;
  encf: string;
  dependsOn: string | null;
  state: string;
  documentId: string | null;
  documentStatus: string | null;
  trackId: string | null;
  /** The tax authority's messages (a rejection names the field and both values). */
  taxauthMessages: Prisma.JsonValue;
  lastError: Prisma.JsonValue;
  detail: Prisma.JsonValue;
};

/** `CertificationRunResponse` (docs/certification.md). */
export type TCertificationRunView = {
  runId: string;
  caseId: string;
  environment: Environment;
  part: 'data' | 'simulation';
  source: string;
  setId: string | null;
  state: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  replacedAt: string | null;
  totals: {
    documents: number;
    pending: number;
    issued: number;
    accepted: number;
    rejected: number;
    failed: number;
    stopped: number;
  };
  failure: Prisma.JsonValue;
  items: TCertificationItemBody[];
};

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** A run with its items, as `GET certificacion/{runId}` answers it. */
export function runViewOf(
  run: TCertificationRunRow,
  items: readonly TCertificationItemView[],
): TCertificationRunView {
  const count = (state: string): number => items.filter((item) => item.state === state).length;
  return {
    runId: run.id,
    caseId: run.caseId,
    environment: 'CerteCF',
    part: run.part,
    source: run.source,
    setId: run.setId,
    state: run.state,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    replacedAt: iso(run.replacedAt),
    totals: {
      documents: items.length,
      pending: count('pending'),
      issued: count('issued'),
      accepted: count('accepted'),
      rejected: count('rejected'),
      failed: count('failed'),
      stopped: count('stopped'),
    },
    failure: run.failure,
    items: items.map((item) => ({
      position: item.position,
      sheet: 'ECF',
      row: item.sheetRow,
      caseRef: item.caseRef,
      type: String(item.type),
      encf: item.encf,
      dependsOn: item.dependsOn,
      state: item.state,
      documentId: item.documentId,
      documentStatus: item.documentStatus,
      trackId: item.trackId,
      taxauthMessages: item.taxauthMessages ?? null,
      lastError: item.lastError ?? null,
      detail: item.detail ?? null,
    })),
  };
}

/** A run's summary in a case view (no items). */
export type TCertificationRunSummary = Omit<TCertificationRunView, 'items'>;

/** The commercial approvals send as the API shows it (`commercialApprovals`). */
export type TCertificationApprovalsView = {
  sendId: string;
  state: string;
  setId: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  totals: {
    approvals: number;
    pending: number;
    signed: number;
    accepted: number;
    rejected: number;
    stopped: number;
  };
  failure: Prisma.JsonValue;
  items: Array<{
    position: number;
    row: number;
    issuerRnc: string;
    encf: string;
    estado: string | null;
    state: string;
    sentAt: string | null;
    answer: Prisma.JsonValue;
  }>;
};

export function approvalsViewOf(
  send: TApprovalSendRow,
  items: readonly TApprovalItemRow[],
): TCertificationApprovalsView {
  const count = (state: string): number => items.filter((item) => item.state === state).length;
  return {
    sendId: send.id,
    state: send.state,
    setId: send.setId,
    createdAt: send.createdAt.toISOString(),
    startedAt: iso(send.startedAt),
    finishedAt: iso(send.finishedAt),
    totals: {
      approvals: items.length,
      pending: count('pending'),
      signed: count('signed'),
      accepted: count('accepted'),
      rejected: count('rejected'),
      stopped: count('stopped'),
    },
    failure: send.failure,
    items: items.map((item) => ({
      position: item.position,
      row: item.sheetRow,
      issuerRnc: item.issuerRnc,
      encf: item.encf,
      estado: item.values['Estado'] ?? null,
      state: item.state,
      sentAt: iso(item.sentAt),
      answer: item.answer ?? null,
    })),
  };
}

/** One of the fifteen steps, as the case shows it. */
export type TCertificationStepView = {
  step: CertificationStep;
  number: number;
  title: string;
  completedBy: TStepCompletedBy;
  state: 'done' | 'current' | 'pending';
  completedAt: string | null;
  /** How it was completed: `run`, `approvals`, `attestation`, `reception`, `directory`, `set`. */
  source: string | null;
  action: string;
};

/** The case: where the account stands, what is next, and the URLs to register. */
export type TCertificationCaseView = {
  caseId: string | null;
  state: CertificationCaseState | 'not_started';
  step: CertificationStep;
  version: number;
  testSetId: string | null;
  officialSetRef: string | null;
  /** What the Partner declared when creating the case (empty, null when not given). */
  ecfTypes: string[];
  b2bSimulation: boolean | null;
  notes: string | null;
  actorRef: string | null;
  createdAt: string | null;
  approvedAt: string | null;
  steps: TCertificationStepView[];
  nextAction: { step: CertificationStep; completedBy: TStepCompletedBy; action: string } | null;
  runs: TCertificationRunSummary[];
  commercialApprovals: TCertificationApprovalsView | null;
  production: { state: ProductionState };
  /** What to register at the tax authority's portal (test: step 7, production: step 12). */
  serviceUrls: {
    test: { reception: string; commercialApproval: string; authentication: string };
    production: { reception: string; commercialApproval: string; authentication: string };
  } | null;
};

function serviceUrlsOf(publicBaseUrl: string | undefined): TCertificationCaseView['serviceUrls'] {
  if (publicBaseUrl === undefined) return null;
  const base = publicBaseUrl.replace(/\/+$/, '');
  const of = (environment: string) => ({
    reception: `${base}/${environment}`,
    commercialApproval: `${base}/${environment}`,
    authentication: `${base}/${environment}`,
  });
  return { test: of('CerteCF'), production: of('eCF') };
}

/** The case view of an account (a case not started yet when `row` is null). */
export async function caseViewOf(options: {
  database: TDatabase;
  row: TCertificationCaseRow | null;
  productionState: ProductionState;
  publicBaseUrl?: string | undefined;
}): Promise<TCertificationCaseView> {
  const { database, row } = options;
  const completions = row === null ? [] : await findStepCompletions(database, row.id);
  const completed = new Map(completions.map((completion) => [completion.step, completion]));
  const current = row?.step ?? 'registered';
  const steps = CERTIFICATION_STEPS.map((step, index): TCertificationStepView => {
    const completion = completed.get(step);
    const info = CERTIFICATION_STEP_INFO[step];
    return {
      step,
      number: index + 1,
      title: info.title,
      completedBy: info.completedBy,
      state: completion !== undefined ? 'done' : step === current ? 'current' : 'pending',
      completedAt: completion === undefined ? null : completion.completedAt.toISOString(),
      source: completion?.source ?? null,
      action: info.action,
    };
  });
  const runs = row === null ? [] : await findCertificationRunsOfCase(database, { caseId: row.id, limit: 20 });
  const runSummaries = await Promise.all(
    runs.map(async (run) => {
      const { items: _items, ...summary } = runViewOf(run, await findCertificationItems(database, run.id));
      return summary;
    }),
  );
  const send = row === null ? null : await findLatestApprovalSend(database, row.id);
  const approvals = send === null ? null : approvalsViewOf(send, await findApprovalItems(database, send.id));
  const info = CERTIFICATION_STEP_INFO[current];
  return {
    caseId: row?.id ?? null,
    state: row?.state ?? 'not_started',
    step: current,
    version: row?.version ?? 0,
    testSetId: row?.testSetId ?? null,
    officialSetRef: row?.officialSetRef ?? null,
    ecfTypes: row?.ecfTypes ?? [],
    b2bSimulation: row?.b2bSimulation ?? null,
    notes: row?.notes ?? null,
    actorRef: row?.actorRef ?? null,
    createdAt: iso(row?.createdAt ?? null),
    approvedAt: iso(row?.approvedAt ?? null),
    steps,
    nextAction:
      row?.state === 'approved'
        ? null
        : { step: current, completedBy: info.completedBy, action: info.action },
    runs: runSummaries,
    commercialApprovals: approvals,
    production: { state: options.productionState },
    serviceUrls: serviceUrlsOf(options.publicBaseUrl),
  };
}
