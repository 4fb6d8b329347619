/**
 * The certification's vocabulary and the parts of its views that the direct API, the Partner API
 * and the portal show alike: the tax authority's fifteen steps (its portal's own names, in its
 * order), the steps a person attests, the parts of the tests, a run's states and the two totals
 * objects, the limits a form checks before sending. `@ecf/certification-sets` and `@ecf/services`
 * take the lists from here; the portal imports them into its pages (browser included).
 */
import { z } from 'zod';

/** The fifteen steps of the tax authority's certification portal, in the order it shows them. */
export const CERTIFICATION_STEPS = [
  'registered',
  'data_tests_ecf',
  'data_tests_commercial_approval',
  'simulation_ecf',
  'simulation_printed_representation',
  'printed_representation_validation',
  'test_service_urls',
  'reception_test_ecf',
  'reception_ecf',
  'reception_test_commercial_approval',
  'reception_commercial_approval',
  'production_service_urls',
  'sworn_declaration',
  'status_verification',
  'finished',
] as const;

export type TCertificationStep = (typeof CERTIFICATION_STEPS)[number];

/**
 * The steps a person completes at the tax authority's portal and records here, in order
 * (`@ecf/services` derives the same list from its step table; its test compares them).
 */
export const ATTESTABLE_STEPS = [
  'registered',
  'simulation_printed_representation',
  'printed_representation_validation',
  'test_service_urls',
  'reception_test_ecf',
  'reception_test_commercial_approval',
  'production_service_urls',
  'sworn_declaration',
] as const satisfies readonly TCertificationStep[];

export type TAttestableStep = (typeof ATTESTABLE_STEPS)[number];

/** The parts of the tests a run belongs to (and a restart undoes). */
export const CERTIFICATION_PARTS = ['data', 'simulation'] as const;
export type TCertificationPart = (typeof CERTIFICATION_PARTS)[number];

/** The states of a run and of a commercial approvals send. */
export const CERTIFICATION_RUN_STATES = ['queued', 'running', 'succeeded', 'failed', 'stopped'] as const;

/** Longest `workbookBase64` the service accepts: 700 KB of base64 text. */
export const WORKBOOK_BASE64_MAX_CHARACTERS = 700 * 1024;

/** Longest notes of an attestation. */
export const ATTESTATION_NOTES_MAX_LENGTH = 4000;

/** How many documents of a run are in each state. */
export const ZCertificationRunTotals = z.object({
  documents: z.number().int(),
  pending: z.number().int(),
  issued: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  failed: z.number().int(),
  stopped: z.number().int(),
});

/** How many commercial approvals of a send are in each state. */
export const ZCertificationApprovalsTotals = z.object({
  approvals: z.number().int(),
  pending: z.number().int(),
  signed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  stopped: z.number().int(),
});

/** The fields every view of a run's row has: its workbook row, its document and where it stands. */
export const CERTIFICATION_RUN_ITEM_FIELDS = {
  position: z.number().int(),
  row: z.number().int().nullable(),
  caseRef: z.string().nullable().describe('CasoPrueba'),
  type: z.string(),
  encf: z.string(),
  dependsOn: z.string().nullable().describe('the eNCF of the original a note waits for'),
  documentId: z.uuid().nullable(),
  documentStatus: z.string().nullable(),
  trackId: z.string().nullable(),
};

/** The members every row of a commercial approvals send has, in the APIs and the portal alike. */
export const CERTIFICATION_APPROVAL_ITEM_FIELDS = {
  position: z.number().int(),
  row: z.number().int(),
  issuerRnc: z.string(),
  encf: z.string(),
  estado: z.string().nullable().describe('`1` accept, `2` reject: the decision the row asks for'),
  sentAt: z.string().nullable(),
};

/** When a run was created, started, finished and replaced (by a restart of its part). */
export const CERTIFICATION_RUN_TIMES = {
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  replacedAt: z.string().nullable().describe('set by a restart of the part: its receipts are replaced'),
};

/** The XML documents of the certification a taxpayer signs: the application and the sworn declaration. */
export const CERTIFICATION_XML_KINDS = ['application', 'sworn_declaration'] as const;
export type TCertificationXmlKind = (typeof CERTIFICATION_XML_KINDS)[number];

/** One of the fifteen steps as the direct API, the Partner API and the portal's stepper show it. */
export const ZCertificationStepView = z.object({
  step: z.enum(CERTIFICATION_STEPS),
  number: z.number().int(),
  title: z.string(),
  completedBy: z.enum(['service', 'attestation', 'taxauth']),
  state: z.enum(['done', 'current', 'pending']),
  completedAt: z.string().nullable(),
  source: z
    .string()
    .nullable()
    .describe('how it was completed: set, run, approvals, attestation, reception, directory'),
  action: z.string(),
});

/** A document of a set as a prevalidation reads it: its workbook row, its eNCF and its warnings. */
export const ZCertificationPrevalidatedDocument = z.object({
  position: z.number().int(),
  sheetRow: z.number().int().nullable(),
  caseRef: z.string().nullable(),
  type: z.string(),
  encf: z.string(),
  dependsOn: z.string().nullable(),
  warnings: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
});
