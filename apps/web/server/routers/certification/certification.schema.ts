import { z } from 'zod';
import {
  CERTIFICATION_APPROVAL_ITEM_FIELDS,
  CERTIFICATION_RUN_ITEM_FIELDS,
  CERTIFICATION_RUN_STATES,
  CERTIFICATION_RUN_TIMES,
  ZCertificationApprovalsTotals,
  ZCertificationPrevalidatedDocument,
  ZCertificationRunTotals,
  ZCertificationStepView,
} from '@ecf/contract';
import { ZEnvironment } from '../api-keys/api-key.schema.ts';
import {
  ATTESTABLE_STEPS,
  CERTIFICATION_PARTS,
  CERTIFICATION_STEPS,
  ZAttestationNotes,
  ZWorkbookBase64,
} from '../../../lib/certification-schemas.ts';
import { ZUuid } from '../../../lib/schemas.ts';

export { ZEnvironment };

const ZPart = z.enum(CERTIFICATION_PARTS, { error: 'Elija la parte: pruebas de datos o simulación.' });
const ZStep = z.enum(CERTIFICATION_STEPS);
const ZRunState = z.enum(CERTIFICATION_RUN_STATES);

/** A message of the tax authority (`{ codigo, valor }` as its answers carry them). */
const ZTaxauthMessage = z.object({ code: z.string(), message: z.string() });

/** One of the fifteen steps as the stepper shows it (the contract's view, as the APIs show it). */
export const ZStepView = ZCertificationStepView;

/** Why a run failed or stopped, as the page says it. */
const ZRunFailure = z.object({
  code: z.string(),
  message: z.string(),
  encf: z.string().nullable(),
  /** The workbook row of the document that failed the run. */
  row: z.number().int().nullable(),
  messages: z.array(ZTaxauthMessage),
});

/** A run without its items (the case's list). */
export const ZRunSummary = z.object({
  runId: z.uuid(),
  part: ZPart,
  source: z.string(),
  state: ZRunState,
  ...CERTIFICATION_RUN_TIMES,
  totals: ZCertificationRunTotals,
  failure: ZRunFailure.nullable(),
});

/** One row of a run: the workbook row, its document and the tax authority's answer. */
export const ZRunItem = z.object({
  ...CERTIFICATION_RUN_ITEM_FIELDS,
  state: z.string(),
  /** The tax authority's messages (a rejection names the field and both values). */
  taxauthMessages: z.array(ZTaxauthMessage),
  /** Why the row failed or is stuck (`code: message`), when the service knows. */
  problem: z.string().nullable(),
});

export const ZRunView = ZRunSummary.extend({ items: z.array(ZRunItem) });

/** The commercial approvals send, row by row. */
export const ZApprovalsView = z.object({
  sendId: z.uuid(),
  state: ZRunState,
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  totals: ZCertificationApprovalsTotals,
  failure: z.string().nullable(),
  items: z.array(
    z.object({
      ...CERTIFICATION_APPROVAL_ITEM_FIELDS,
      state: z.string(),
      /** The tax authority's answer (or why none came), as text. */
      answer: z.string().nullable(),
    }),
  ),
});

const ZServiceUrls = z.object({
  reception: z.string(),
  commercialApproval: z.string(),
  authentication: z.string(),
});

/** The case: where the account stands, the next human action, the URLs to register. */
export const ZCaseView = z.object({
  caseId: z.uuid().nullable(),
  state: z.enum(['not_started', 'in_progress', 'failed', 'approved', 'closed']),
  step: ZStep,
  createdAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  steps: z.array(ZStepView),
  nextAction: z
    .object({ step: ZStep, completedBy: z.enum(['service', 'attestation', 'taxauth']), action: z.string() })
    .nullable(),
  runs: z.array(ZRunSummary),
  commercialApprovals: ZApprovalsView.nullable(),
  production: z.object({ state: z.enum(['not_requested', 'pending', 'active', 'suspended']) }),
  serviceUrls: z.object({ test: ZServiceUrls, production: ZServiceUrls }).nullable(),
});

export const ZCaseInput = z.object({ environment: ZEnvironment });
export const ZCaseOutput = z.object({ case: ZCaseView, canManage: z.boolean() });

/**
 * A set to prevalidate or run: the tax authority's workbook (read in the browser, base64) or its
 * model (simulation only); `part` defaults to the one the case is at.
 */
export const ZSetInput = z.union([
  z.object({ environment: ZEnvironment, part: ZPart.optional(), workbookBase64: ZWorkbookBase64 }),
  z.object({ environment: ZEnvironment, part: ZPart.optional(), taxauthModel: z.literal(true) }),
]);

export const ZPrevalidateOutput = z.object({
  part: ZPart,
  source: z.enum(['workbook', 'json', 'taxauth_model', 'stored', 'official']),
  issuerRnc: z.string(),
  rows: z.object({ ecf: z.number().int(), rfce: z.number().int() }),
  types: z.record(z.string(), z.number().int()),
  documents: z.array(ZCertificationPrevalidatedDocument),
  alreadyUsedEncfs: z.array(z.string()),
});

export const ZStartRunOutput = z.object({ run: ZRunSummary });

export const ZRunInput = z.object({ environment: ZEnvironment, runId: ZUuid });
export const ZRunOutput = z.object({ run: ZRunView, canManage: z.boolean() });

export const ZRestartInput = z.object({ environment: ZEnvironment, part: ZPart });
export const ZRestartOutput = z.object({
  part: ZPart,
  stoppedRunId: z.uuid().nullable(),
  stoppedApprovalSendId: z.uuid().nullable(),
  replacedDocuments: z.number().int(),
  state: z.string(),
  step: z.string(),
});

export const ZApprovalsInput = z.object({ environment: ZEnvironment });
export const ZApprovalsOutput = z.object({ commercialApprovals: ZApprovalsView.nullable() });

export const ZSendApprovalsInput = z.object({ environment: ZEnvironment, workbookBase64: ZWorkbookBase64 });
export const ZSendApprovalsOutput = z.object({ commercialApprovals: ZApprovalsView });

export const ZAttestInput = z.object({
  environment: ZEnvironment,
  step: z.enum(ATTESTABLE_STEPS, { error: 'Este paso no se marca a mano.' }),
  notes: ZAttestationNotes.optional(),
});
export const ZAttestOutput = z.object({ step: ZStep, state: z.string() });

export const ZResendInput = z.object({ environment: ZEnvironment, documentId: ZUuid });
export const ZResendOutput = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  status: z.string(),
  action: z.enum(['signing', 'resent', 'status_queried']),
});

export const ZRequestActivationInput = z.object({ environment: ZEnvironment });
export const ZRequestActivationOutput = z.object({
  productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']),
  checking: z.boolean(),
});
