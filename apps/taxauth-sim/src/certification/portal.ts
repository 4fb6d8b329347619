/**
 * The tax authority's certification portal, as the simulator plays it (README "Certification
 * portal"): per RNC under certification the step, the data-test and approval workbooks (issued from
 * the model workbooks with fresh eNCFs, or real ones loaded by an admin), the literal judging of
 * CerteCF receptions against them, the simulation count, the registered URLs, the attestations of
 * the steps a person judges, and the `ecf` directory entry of a finished certification.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  encfTypeOf,
  formatEncf,
  issueApprovalWorkbook,
  issueEcfWorkbook,
  MODEL_WORKBOOKS,
  planEcfRenumbering,
  readCertificationWorkbook,
  renumberEcfSet,
  TAXAUTH_TEST_ISSUER_RNC,
  workbookRowToEcf,
  workbookRowToRfce,
  APPROVAL_SET_COLUMNS,
  type TApprovalRow,
  type TApprovalSetWorkbook,
  type TEcfSetWorkbook,
  type TTaxauthTree,
  type TWorkbookError,
  type TWorkbookRow,
} from '@ecf/certification-sets';
import { XSD_ORDER_TABLES, type TXsdOrderTable } from '@ecf/fiscal-core';
import type { TSql } from '@ecf/db';
import type { TEnvironment } from '../http.ts';
import { CONSUMER_THRESHOLD_CENTS, message } from '../judge.ts';
import { ECF_MESSAGES, type TMessage } from '../messages.ts';
import type { TDirectoryEntry } from '../options.ts';
import type { TStore, TTrack } from '../store.ts';
import type {
  TCertificationRecord,
  TCertificationRejection,
  TServiceUrls,
  TStoredSet,
} from './certification-store.ts';
import {
  compareLeaves,
  leavesOfTree,
  leavesOfXml,
  mismatchText,
  type TFieldMismatch,
  type TLeaf,
} from './literal-comparison.ts';
import type { ATTESTED_STEPS } from './steps.ts';
import { missingBefore, restartedFrom, stepStates, withCompleted, type TCertificationStep } from './steps.ts';

/** The certification environment: the only one whose receptions are judged against a workbook. */
export const CERTIFICATION_ENVIRONMENT: TEnvironment = 'certecf';

/** The sheet name of the approval set's progress rows. */
const APPROVAL_SHEET = 'ACEECF_Generadas';

/** At most this many field differences are listed in one rejection (the rest are counted). */
const MAX_LISTED_MISMATCHES = 20;

/** Elements the sender writes itself and the workbook does not give. */
const IGNORED_IN_ECF: ReadonlySet<string> = new Set(['FechaHoraFirma']);
const IGNORED_IN_RFCE: ReadonlySet<string> = new Set(['FechaHoraFirma', 'CodigoSeguridadeCF']);
/**
 * The approval set writes `MontoTotal` as a number (`7080`) while the ACECF schema requires two
 * decimals (`7080.00`): it is compared as an amount, the other columns as text.
 */
const APPROVAL_AMOUNTS: ReadonlySet<string> = new Set(['MontoTotal']);

export type TAttestedStep = (typeof ATTESTED_STEPS)[number];

/** A data-test document to receive: an `ECF` row through `recepcion`, an `RFCE` row through `recepcionfc`. */
type TDataItem = { readonly sheet: 'ECF' | 'RFCE'; readonly encf: string };

/** What a reception's review found, and what to remember for after it is recorded. */
export type TReceptionReview = {
  readonly rejections: TMessage[];
  readonly subject:
    | {
        readonly kind: 'data';
        readonly rnc: string;
        readonly setId: number;
        readonly epoch: number;
        readonly sheet: 'ECF' | 'RFCE';
        readonly encf: string;
        readonly mismatches: readonly TFieldMismatch[];
      }
    | { readonly kind: 'simulation'; readonly rnc: string };
};

/** What an ACECF's review found: a refusal (texts), or the row it answers. */
export type TApprovalReview =
  | { readonly refusal: string[] }
  | {
      readonly subject: {
        readonly rnc: string;
        readonly setId: number;
        readonly epoch: number;
        readonly encf: string;
      };
    };

/** A workbook could not be loaded: why, for the admin route's answer. */
export type TLoadRefusal =
  | { readonly refusal: 'unreadable'; readonly errors: readonly TWorkbookError[] }
  | { readonly refusal: 'wrong_kind'; readonly found: 'ecf' | 'approval' }
  | { readonly refusal: 'rnc_mismatch'; readonly found: string }
  | { readonly refusal: 'finished' };

type TTemplates = {
  readonly ecf: { readonly content: Uint8Array; readonly workbook: TEcfSetWorkbook };
  readonly approval: { readonly content: Uint8Array; readonly workbook: TApprovalSetWorkbook };
};

type TPreparedSet = Omit<TStoredSet, 'id'> & { xlsx: Uint8Array | null };

export type TCertificationPortal = ReturnType<typeof createCertificationPortal>;

/** `<RNC>-<ddMMyyyyHHmmss>.xlsx` in Dominican time, as the tax authority names its downloads. */
export function workbookFileName(rnc: string, at: Date): string {
  const local = new Date(at.getTime() - 4 * 3600_000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${rnc}-${pad(local.getUTCDate())}${pad(local.getUTCMonth() + 1)}${local.getUTCFullYear()}${pad(local.getUTCHours())}${pad(local.getUTCMinutes())}${pad(local.getUTCSeconds())}.xlsx`;
}

/** The category of an `ECF` row for counting: its type, `32_rfce` for an E32 below RD$250,000. */
export function categoryOfRow(row: TWorkbookRow): string | null {
  const type = row.values['TipoeCF'] ?? encfTypeOf(row.values['ENCF'] ?? '');
  if (type === undefined || type === null) return null;
  if (type !== '32') return type;
  const cents = Math.round(Number(row.values['MontoTotal'] ?? 'NaN') * 100);
  return Number.isFinite(cents) && cents < CONSUMER_THRESHOLD_CENTS ? '32_rfce' : '32';
}

/** The documents a data-test set expects, in workbook order. */
function dataItemsOf(workbook: TEcfSetWorkbook): TDataItem[] {
  const items: TDataItem[] = [];
  for (const row of workbook.ecf) {
    const encf = row.values['ENCF'];
    // A small E32 reaches the tax authority as its summary (the RFCE sheet), never in full.
    if (encf !== undefined && categoryOfRow(row) !== '32_rfce') items.push({ sheet: 'ECF', encf });
  }
  for (const row of workbook.rfce) {
    const encf = row.values['ENCF'];
    if (encf !== undefined) items.push({ sheet: 'RFCE', encf });
  }
  return items;
}

/** How many documents of each category a simulation must have accepted: those of the data set. */
function simulationRequirement(workbook: TEcfSetWorkbook): Record<string, number> {
  const required: Record<string, number> = {};
  for (const row of workbook.ecf) {
    const category = categoryOfRow(row);
    if (category !== null) required[category] = (required[category] ?? 0) + 1;
  }
  return required;
}

/** Every row of a set as the tree its document must carry; the errors of the rows that cannot be. */
function rowTreeErrors(workbook: TEcfSetWorkbook): TWorkbookError[] {
  const errors: TWorkbookError[] = [];
  for (const row of workbook.ecf) {
    const mapped = workbookRowToEcf(row);
    if (!mapped.ok) errors.push(...mapped.errors);
  }
  for (const row of workbook.rfce) {
    const mapped = workbookRowToRfce(row);
    if (!mapped.ok) errors.push(...mapped.errors);
  }
  return errors;
}

function tableOf(root: 'ECF' | 'RFCE' | 'ACECF', type?: string): TXsdOrderTable | undefined {
  const tables = XSD_ORDER_TABLES as Record<string, TXsdOrderTable | undefined>;
  return root === 'ECF' ? tables[`E${type ?? ''}`] : tables[root];
}

function approvalTree(row: TApprovalRow): TTaxauthTree {
  const detail: TTaxauthTree = {};
  for (const column of APPROVAL_SET_COLUMNS) {
    const value = row.values[column];
    if (value !== undefined) detail[column] = value;
  }
  return { ACECF: { DetalleAprobacionComercial: detail } };
}

/** The rejection messages of a reception's differences with its row. */
function mismatchMessages(mismatches: readonly TFieldMismatch[]): TMessage[] {
  const listed: TMessage[] = mismatches.slice(0, MAX_LISTED_MISMATCHES).map((mismatch) => ({
    valor: mismatchText(mismatch),
    codigo: ECF_MESSAGES.certificationMismatch.codigo,
  }));
  const more = mismatches.length - listed.length;
  if (more > 0) listed.push(message('certificationMoreMismatches', { cantidad: String(more) }));
  return listed;
}

function rejectionOf(options: {
  encf: string;
  sheet: string;
  mismatch: TFieldMismatch | undefined;
  text: string;
  trackId: string | null;
  at: Date;
}): TCertificationRejection {
  return {
    encf: options.encf,
    sheet: options.sheet,
    field: options.mismatch?.field ?? null,
    expected: options.mismatch?.expected ?? null,
    received: options.mismatch?.received ?? null,
    message: options.text,
    trackId: options.trackId,
    at: options.at.toISOString(),
  };
}

/** Creates the portal over the simulator's store; templates are read from the package on first use. */
export function createCertificationPortal(options: { store: TStore; now: () => Date }) {
  const certifications = options.store.certification;
  const now = options.now;
  let templates: Promise<TTemplates> | undefined;
  /** Sets never change once stored: their rows are kept by id (a few per taxpayer). */
  const setCache = new Map<number, Promise<TStoredSet | undefined>>();
  /** The leaves each document of a set must have, by `setId:sheet:eNCF`. */
  const leafCache = new Map<string, readonly TLeaf[]>();

  function loadTemplates(): Promise<TTemplates> {
    templates ??= (async () => {
      const [ecfContent, approvalContent] = await Promise.all([
        readFile(MODEL_WORKBOOKS.ecfSet),
        readFile(MODEL_WORKBOOKS.approvalSet),
      ]);
      const ecf = await readCertificationWorkbook({ content: ecfContent });
      const approval = await readCertificationWorkbook({ content: approvalContent });
      if (
        !ecf.ok ||
        ecf.workbook.kind !== 'ecf_set' ||
        !approval.ok ||
        approval.workbook.kind !== 'approval_set'
      )
        throw new Error('the model workbooks of @ecf/certification-sets cannot be read');
      return {
        ecf: { content: new Uint8Array(ecfContent), workbook: ecf.workbook },
        approval: { content: new Uint8Array(approvalContent), workbook: approval.workbook },
      };
    })();
    templates.catch(() => {
      templates = undefined;
    });
    return templates;
  }

  /**
   * A stored set (sets never change: cached by id). Inside `withLocked` pass its `sql`: a read on
   * the pool while holding the row lock could wait for a connection the waiters on that lock hold.
   */
  function getSet(id: number | null, sql?: TSql): Promise<TStoredSet | undefined> {
    if (id === null) return Promise.resolve(undefined);
    let cached = setCache.get(id);
    if (cached === undefined) {
      if (setCache.size > 500) setCache.clear();
      cached = certifications.getSet(id, sql);
      setCache.set(id, cached);
      cached.catch(() => setCache.delete(id));
    }
    return cached;
  }

  /** A `nextEncf` over sequences reserved per type for an issuer in CerteCF. */
  async function reserveEncfs(
    rnc: string,
    countsByType: ReadonlyMap<string, number>,
    sql?: TSql,
  ): Promise<(type: string) => string> {
    const next = new Map<string, { sequence: number; last: number }>();
    for (const [type, count] of countsByType) {
      const first = await certifications.reserveSequences(CERTIFICATION_ENVIRONMENT, rnc, type, count, sql);
      next.set(type, { sequence: first, last: first + count - 1 });
    }
    return (type) => {
      const range = next.get(type);
      if (range === undefined || range.sequence > range.last)
        throw new Error(`no eNCF of type ${type} was reserved for ${rnc}`);
      const encf = formatEncf(type, range.sequence);
      range.sequence += 1;
      return encf;
    };
  }

  function countTypes(encfs: Iterable<string>): Map<string, number> {
    const counts = new Map<string, number>();
    for (const encf of new Set(encfs)) {
      const type = encfTypeOf(encf);
      if (type !== null) counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return counts;
  }

  /** A data-test set for `rnc` with fresh eNCFs: its rows now, its file on first download. */
  async function prepareIssuedEcfSet(
    rnc: string,
    legalName: string | null,
    at: Date,
    sql?: TSql,
  ): Promise<TPreparedSet> {
    const template = (await loadTemplates()).ecf.workbook;
    const templateEncfs = [...template.ecf, ...template.rfce]
      .map((row) => row.values['ENCF'])
      .filter((encf): encf is string => encf !== undefined);
    const nextEncf = await reserveEncfs(rnc, countTypes(templateEncfs), sql);
    const renumbering = planEcfRenumbering(template, nextEncf);
    return {
      rnc,
      kind: 'ecf',
      origin: 'issued',
      workbook: renumberEcfSet({
        workbook: template,
        rnc,
        ...(legalName === null ? {} : { legalName }),
        renumbering,
      }),
      renumbering,
      issuedLegalName: legalName,
      fileName: workbookFileName(rnc, at),
      createdAt: at,
      xlsx: null,
    };
  }

  /** An approval set for the buyer `rnc`: the template's rows under fresh eNCFs of the test issuer. */
  async function prepareIssuedApprovalSet(rnc: string, at: Date): Promise<TPreparedSet> {
    const template = (await loadTemplates()).approval;
    const issuerEncfs = template.workbook.approvals
      .map((row) => row.values['eNCF'])
      .filter((encf): encf is string => encf !== undefined);
    const nextEncf = await reserveEncfs(TAXAUTH_TEST_ISSUER_RNC, countTypes(issuerEncfs));
    const issued = await issueApprovalWorkbook({ template: template.content, buyerRnc: rnc, nextEncf });
    if (!issued.ok)
      throw new Error(`the model approval set cannot be issued: ${JSON.stringify(issued.errors)}`);
    return {
      rnc,
      kind: 'approval',
      origin: 'issued',
      workbook: issued.workbook,
      renumbering: issued.renumbering,
      issuedLegalName: null,
      fileName: workbookFileName(rnc, at),
      createdAt: at,
      xlsx: issued.content,
    };
  }

  /**
   * The tax authority knows the e-CF an approval set answers: its issuer issued them to the buyer
   * and they were accepted, so an ACECF for them finds its e-CF.
   */
  async function recordAnsweredDocuments(set: TPreparedSet, at: Date): Promise<void> {
    if (set.workbook.kind !== 'approval_set') return;
    await certifications.recordIssuedDocuments(
      set.workbook.approvals.flatMap((row) => {
        const { RNCEmisor, eNCF, RNCComprador, MontoTotal, FechaEmision } = row.values;
        if (RNCEmisor === undefined || eNCF === undefined || RNCComprador === undefined) return [];
        return [
          {
            trackId: randomUUID(),
            environment: CERTIFICATION_ENVIRONMENT,
            rncEmisor: RNCEmisor,
            encf: eNCF,
            rncComprador: RNCComprador,
            montoTotal: MontoTotal ?? '0',
            totalItbis: null,
            fechaEmision: FechaEmision ?? '',
            fechaFirma: null,
            codigoSeguridad: null,
            receivedAt: at,
          },
        ];
      }),
    );
  }

  /**
   * Registers `rnc` (step 1 done) with the sets asked for; a null `legalName` keeps the
   * template's. Returns whether it was created now and the record.
   */
  async function registerWith(
    rnc: string,
    legalName: string | null,
    issue: { ecf: boolean; approval: boolean },
  ): Promise<{ created: boolean; record: TCertificationRecord }> {
    const existing = await certifications.get(rnc);
    if (existing !== undefined) return { created: false, record: existing };
    const at = now();
    const ecfSet = issue.ecf ? await prepareIssuedEcfSet(rnc, legalName, at) : undefined;
    const approvalSet = issue.approval ? await prepareIssuedApprovalSet(rnc, at) : undefined;
    if (approvalSet !== undefined) await recordAnsweredDocuments(approvalSet, at);
    return certifications.withLocked(rnc, async (sql, record) => {
      if (record !== undefined) return { created: false, record };
      const completedSteps = withCompleted({}, ['registered'], at);
      if (!(await certifications.insert(sql, { rnc, legalName, completedSteps, at }))) {
        // Another request registered it meanwhile (its row was not there to lock): that one stands.
        const existing = await certifications.get(rnc);
        if (existing === undefined) throw new Error(`the certification of ${rnc} cannot be read`);
        return { created: false, record: existing };
      }
      const ecfSetId = ecfSet === undefined ? null : await certifications.insertSet(sql, ecfSet);
      const approvalSetId =
        approvalSet === undefined ? null : await certifications.insertSet(sql, approvalSet);
      return {
        created: true,
        record: await certifications.update(sql, rnc, { ecfSetId, approvalSetId, completedSteps }, at),
      };
    });
  }

  /** The data tests start over (a rejection, a restart): the epoch moves on; an issued set is re-issued. */
  async function restartDataTests(
    sql: TSql,
    record: TCertificationRecord,
    at: Date,
    rejection: TCertificationRejection | null,
  ): Promise<TCertificationRecord> {
    const set = await getSet(record.ecfSetId, sql);
    let ecfSetId = record.ecfSetId;
    if (set === undefined || set.origin === 'issued') {
      ecfSetId = await certifications.insertSet(
        sql,
        await prepareIssuedEcfSet(record.rnc, record.legalName, at, sql),
      );
    }
    return certifications.update(
      sql,
      record.rnc,
      {
        ecfSetId,
        dataEpoch: record.dataEpoch + 1,
        dataResets: record.dataResets + 1,
        approvalEpoch: record.approvalEpoch + 1,
        completedSteps: restartedFrom(record.completedSteps, 'data_tests_ecf'),
        simulationFrom: null,
        ...(rejection === null ? {} : { lastDataRejection: rejection }),
      },
      at,
    );
  }

  async function expectedLeaves(
    set: TStoredSet,
    sheet: 'ECF' | 'RFCE',
    encf: string,
  ): Promise<readonly TLeaf[] | undefined> {
    const key = `${set.id}:${sheet}:${encf}`;
    const cached = leafCache.get(key);
    if (cached !== undefined) return cached;
    if (set.workbook.kind !== 'ecf_set') return undefined;
    const row = (sheet === 'ECF' ? set.workbook.ecf : set.workbook.rfce).find(
      (candidate) => candidate.values['ENCF'] === encf,
    );
    if (row === undefined) return undefined;
    const mapped = sheet === 'ECF' ? workbookRowToEcf(row) : workbookRowToRfce(row);
    if (!mapped.ok) return undefined;
    const leaves = leavesOfTree(mapped.document, tableOf(sheet, mapped.type));
    if (leafCache.size > 5000) leafCache.clear();
    leafCache.set(key, leaves);
    return leaves;
  }

  async function simulationProgress(
    record: TCertificationRecord,
    sql?: TSql,
  ): Promise<{ required: Record<string, number>; accepted: Record<string, number>; done: boolean }> {
    const set = await getSet(record.ecfSetId, sql);
    const required = set?.workbook.kind === 'ecf_set' ? simulationRequirement(set.workbook) : {};
    const accepted =
      record.simulationFrom === null
        ? {}
        : await certifications.acceptedCountsSince(record.rnc, record.simulationFrom, sql);
    const done =
      Object.keys(required).length > 0 &&
      Object.entries(required).every(([category, count]) => (accepted[category] ?? 0) >= count);
    return { required, accepted, done };
  }

  return {
    /** Registers the application (step 1) and issues both workbooks; `created` false when it existed. */
    async register(rnc: string, legalName: string | null) {
      return registerWith(rnc, legalName, { ecf: true, approval: true });
    },

    get(rnc: string): Promise<TCertificationRecord | undefined> {
      return certifications.get(rnc);
    },

    /** The status the admin route answers, or undefined for an RNC never registered. */
    async status(rnc: string) {
      const record = await certifications.get(rnc);
      if (record === undefined) return undefined;
      const [ecfSet, approvalSet, attestations, receptionTests, simulation] = await Promise.all([
        getSet(record.ecfSetId),
        getSet(record.approvalSetId),
        certifications.attestationsOf(rnc),
        certifications.receptionTestsOf(rnc),
        simulationProgress(record),
      ]);
      const setSummary = (set: TStoredSet | undefined) =>
        set === undefined
          ? null
          : { origin: set.origin, fileName: set.fileName, createdAt: set.createdAt.toISOString() };
      const items = ecfSet?.workbook.kind === 'ecf_set' ? dataItemsOf(ecfSet.workbook) : [];
      const dataProgress =
        ecfSet === undefined
          ? new Set<string>()
          : await certifications.progressOf(undefined, ecfSet.id, record.dataEpoch);
      const approvals = approvalSet?.workbook.kind === 'approval_set' ? approvalSet.workbook.approvals : [];
      const approvalProgress =
        approvalSet === undefined
          ? new Set<string>()
          : await certifications.progressOf(undefined, approvalSet.id, record.approvalEpoch);
      const approvalEncfs = approvals.map((row) => row.values['eNCF'] ?? '');
      return {
        rnc: record.rnc,
        legalName: record.legalName,
        step: record.step,
        steps: stepStates(record.completedSteps),
        dataTests: {
          set: setSummary(ecfSet),
          expected: items.length,
          accepted: items.filter((item) => dataProgress.has(`${item.sheet}:${item.encf}`)).length,
          pendingEncfs: items
            .filter((item) => !dataProgress.has(`${item.sheet}:${item.encf}`))
            .map((item) => item.encf),
          lastRejection: record.lastDataRejection,
          resets: record.dataResets,
        },
        approvalTests: {
          set: setSummary(approvalSet),
          expected: approvalEncfs.length,
          accepted: approvalEncfs.filter((encf) => approvalProgress.has(`${APPROVAL_SHEET}:${encf}`)).length,
          pendingEncfs: approvalEncfs.filter((encf) => !approvalProgress.has(`${APPROVAL_SHEET}:${encf}`)),
          lastRejection: record.lastApprovalRejection,
        },
        simulation: {
          required: simulation.required,
          accepted: simulation.accepted,
          countingFrom: record.simulationFrom?.toISOString() ?? null,
        },
        urls: { test: record.testUrls, production: record.productionUrls },
        receptionTests: receptionTests.map((test) => ({
          kind: test.kind,
          ok: test.ok,
          calls: test.calls,
          ranAt: test.ranAt.toISOString(),
        })),
        attestations: attestations.map((attestation) => ({
          step: attestation.step,
          outcome: attestation.outcome,
          notes: attestation.notes,
          recordedAt: attestation.recordedAt.toISOString(),
        })),
        registeredAt: record.registeredAt.toISOString(),
        updatedAt: record.updatedAt.toISOString(),
      };
    },

    /** The current workbook file of a kind (an issued data-test set's file is written now if it was not). */
    async workbookFile(
      rnc: string,
      kind: 'ecf' | 'approval',
    ): Promise<{ fileName: string; content: Uint8Array } | undefined> {
      const record = await certifications.get(rnc);
      const set = await getSet(
        record === undefined ? null : kind === 'ecf' ? record.ecfSetId : record.approvalSetId,
      );
      if (set === undefined) return undefined;
      const stored = await certifications.setFile(set.id);
      if (stored !== null) return { fileName: set.fileName, content: new Uint8Array(stored) };
      if (set.renumbering === null) return undefined;
      const issued = await issueEcfWorkbook({
        template: (await loadTemplates()).ecf.content,
        rnc: set.rnc,
        ...(set.issuedLegalName === null ? {} : { legalName: set.issuedLegalName }),
        renumbering: set.renumbering,
      });
      if (!issued.ok)
        throw new Error(`the issued set ${set.id} cannot be written: ${JSON.stringify(issued.errors)}`);
      await certifications.storeSetFile(set.id, issued.content);
      return { fileName: set.fileName, content: issued.content };
    },

    /**
     * Loads a real workbook to judge `rnc` against, as if the tax authority had issued it:
     * registers the RNC if needed; a data-test set restarts the data tests, an approval set the
     * approval tests (and what follows them).
     */
    async loadWorkbook(
      rnc: string,
      kind: 'ecf' | 'approval',
      content: Uint8Array,
    ): Promise<TLoadRefusal | { refusal: null; created: boolean; record: TCertificationRecord }> {
      const read = await readCertificationWorkbook({ content });
      if (!read.ok) return { refusal: 'unreadable', errors: read.errors };
      const workbook = read.workbook;
      const found = workbook.kind === 'ecf_set' ? 'ecf' : 'approval';
      if (found !== kind) return { refusal: 'wrong_kind', found };
      const setRnc = workbook.kind === 'ecf_set' ? workbook.issuerRnc : workbook.buyerRnc;
      if (setRnc !== rnc) return { refusal: 'rnc_mismatch', found: setRnc };
      if (workbook.kind === 'ecf_set') {
        const errors = rowTreeErrors(workbook);
        if (errors.length > 0) return { refusal: 'unreadable', errors };
      }
      const existing = await certifications.get(rnc);
      if (existing?.step === 'finished') return { refusal: 'finished' };
      const { created } = await registerWith(rnc, null, {
        ecf: kind !== 'ecf',
        approval: kind !== 'approval',
      });
      const at = now();
      const set: TPreparedSet = {
        rnc,
        kind,
        origin: 'loaded',
        workbook,
        renumbering: null,
        issuedLegalName: null,
        fileName: workbookFileName(rnc, at),
        createdAt: at,
        xlsx: content,
      };
      if (kind === 'approval') await recordAnsweredDocuments(set, at);
      const record = await certifications.withLocked(rnc, async (sql, current) => {
        if (current === undefined) throw new Error(`the certification of ${rnc} disappeared`);
        const setId = await certifications.insertSet(sql, set);
        if (kind === 'ecf') {
          return certifications.update(
            sql,
            rnc,
            {
              ecfSetId: setId,
              dataEpoch: current.dataEpoch + 1,
              approvalEpoch: current.approvalEpoch + 1,
              completedSteps: restartedFrom(current.completedSteps, 'data_tests_ecf'),
              simulationFrom: null,
              lastDataRejection: null,
            },
            at,
          );
        }
        const approvalDone = current.completedSteps.data_tests_commercial_approval !== undefined;
        return certifications.update(
          sql,
          rnc,
          {
            approvalSetId: setId,
            approvalEpoch: current.approvalEpoch + 1,
            lastApprovalRejection: null,
            ...(approvalDone
              ? {
                  completedSteps: restartedFrom(current.completedSteps, 'data_tests_commercial_approval'),
                  simulationFrom: null,
                }
              : {}),
          },
          at,
        );
      });
      return { refusal: null, created, record };
    },

    /**
     * The portal's restart: `data` starts the data tests over (a new issued workbook with fresh
     * eNCFs; a loaded set is kept and its progress cleared), `simulation` starts the simulation
     * count over. Undefined for an unknown RNC; `missing`/`finished` when the part cannot restart now.
     */
    async restart(
      rnc: string,
      part: 'data' | 'simulation',
    ): Promise<
      | undefined
      | { refusal: 'finished' }
      | { refusal: 'not_started'; missing: TCertificationStep[] }
      | { refusal: null; record: TCertificationRecord }
    > {
      return certifications.withLocked(rnc, async (sql, record) => {
        if (record === undefined) return undefined;
        if (record.step === 'finished') return { refusal: 'finished' as const };
        const at = now();
        if (part === 'data') return { refusal: null, record: await restartDataTests(sql, record, at, null) };
        const missing = missingBefore('simulation_ecf', record.completedSteps);
        if (missing.length > 0) return { refusal: 'not_started' as const, missing };
        return {
          refusal: null,
          record: await certifications.update(
            sql,
            rnc,
            { completedSteps: restartedFrom(record.completedSteps, 'simulation_ecf'), simulationFrom: at },
            at,
          ),
        };
      });
    },

    /** Registers the test (step 7) or production (step 12) URLs, in order. */
    async registerUrls(
      rnc: string,
      kind: 'test' | 'production',
      urls: { receptionUrl: string; commercialApprovalUrl: string; authenticationUrl: string | null },
    ): Promise<
      undefined | { missing: TCertificationStep[] } | { missing: null; record: TCertificationRecord }
    > {
      const step: TCertificationStep = kind === 'test' ? 'test_service_urls' : 'production_service_urls';
      return certifications.withLocked(rnc, async (sql, record) => {
        if (record === undefined) return undefined;
        const missing = missingBefore(step, record.completedSteps);
        if (missing.length > 0) return { missing };
        const at = now();
        const registered: TServiceUrls = { ...urls, registeredAt: at.toISOString() };
        return {
          missing: null,
          record: await certifications.update(
            sql,
            rnc,
            {
              ...(kind === 'test' ? { testUrls: registered } : { productionUrls: registered }),
              completedSteps: withCompleted(record.completedSteps, [step], at),
            },
            at,
          ),
        };
      });
    },

    /**
     * Records a person's judgement of a step (append-only), in order. Approved completes the step;
     * an approved sworn declaration also completes status verification and finished, which lists
     * the taxpayer in the `ecf` directory.
     */
    async attest(
      rnc: string,
      attestation: { step: TAttestedStep; outcome: 'approved' | 'rejected'; notes: string | null },
    ): Promise<
      | undefined
      | { refusal: 'prerequisites'; missing: TCertificationStep[] }
      | { refusal: 'already_done' }
      | { refusal: null; record: TCertificationRecord }
    > {
      return certifications.withLocked(rnc, async (sql, record) => {
        if (record === undefined) return undefined;
        const missing = missingBefore(attestation.step, record.completedSteps);
        if (missing.length > 0) return { refusal: 'prerequisites' as const, missing };
        if (record.completedSteps[attestation.step] !== undefined)
          return { refusal: 'already_done' as const };
        const at = now();
        await certifications.insertAttestation(sql, rnc, { ...attestation, recordedAt: at });
        if (attestation.outcome === 'rejected')
          return { refusal: null, record: await certifications.update(sql, rnc, {}, at) };
        const steps: TCertificationStep[] =
          attestation.step === 'sworn_declaration'
            ? ['sworn_declaration', 'status_verification', 'finished']
            : [attestation.step];
        let legalName = record.legalName;
        if (attestation.step === 'sworn_declaration' && legalName === null) {
          // The directory shows the legal name; without one registered, the set's issuer name.
          const set = await getSet(record.ecfSetId, sql);
          legalName =
            set?.workbook.kind === 'ecf_set'
              ? (set.workbook.ecf[0]?.values['RazonSocialEmisor'] ?? null)
              : null;
        }
        return {
          refusal: null,
          record: await certifications.update(
            sql,
            rnc,
            { legalName, completedSteps: withCompleted(record.completedSteps, steps, at) },
            at,
          ),
        };
      });
    },

    /** Records a reception test's outcome; on success its two steps are done. */
    async recordReceptionTest(
      rnc: string,
      kind: 'ecf' | 'commercial_approval',
      outcome: { ok: boolean; calls: unknown },
    ): Promise<TCertificationRecord | undefined> {
      return certifications.withLocked(rnc, async (sql, record) => {
        if (record === undefined) return undefined;
        const at = now();
        await certifications.insertReceptionTest(sql, rnc, {
          kind,
          ok: outcome.ok,
          calls: outcome.calls,
          ranAt: at,
        });
        const steps: TCertificationStep[] =
          kind === 'ecf'
            ? ['reception_test_ecf', 'reception_ecf']
            : ['reception_test_commercial_approval', 'reception_commercial_approval'];
        return certifications.update(
          sql,
          rnc,
          outcome.ok ? { completedSteps: withCompleted(record.completedSteps, steps, at) } : {},
          at,
        );
      });
    },

    /**
     * Before a CerteCF reception that passed the blocking checks is recorded: for a taxpayer at
     * the data tests whose set has this document, the literal comparison with its row (each
     * difference a rejection that burns the e-NCF); for one at the simulation, a note to count it.
     */
    async reviewReception(options: {
      environment: TEnvironment;
      kind: 'ECF' | 'RFCE';
      xml: string;
      rncEmisor: string | undefined;
      encf: string | undefined;
    }): Promise<TReceptionReview | undefined> {
      if (options.environment !== CERTIFICATION_ENVIRONMENT || options.rncEmisor === undefined)
        return undefined;
      const record = await certifications.get(options.rncEmisor);
      if (record === undefined) return undefined;
      if (record.step === 'simulation_ecf')
        return { rejections: [], subject: { kind: 'simulation', rnc: record.rnc } };
      if (record.step !== 'data_tests_ecf' || options.encf === undefined) return undefined;
      const set = await getSet(record.ecfSetId);
      if (set === undefined) return undefined;
      const sheet = options.kind;
      const expected = await expectedLeaves(set, sheet, options.encf);
      if (expected === undefined) return undefined;
      const type = encfTypeOf(options.encf) ?? undefined;
      const received = leavesOfXml(options.xml, tableOf(sheet, type));
      const mismatches =
        received === undefined
          ? [{ field: sheet, expected: null, received: null }]
          : compareLeaves(expected, received, {
              ignored: sheet === 'RFCE' ? IGNORED_IN_RFCE : IGNORED_IN_ECF,
            });
      return {
        rejections: mismatchMessages(mismatches),
        subject: {
          kind: 'data',
          rnc: record.rnc,
          setId: set.id,
          epoch: record.dataEpoch,
          sheet,
          encf: options.encf,
          mismatches,
        },
      };
    },

    /**
     * After the reception is recorded: an accepted document of the set is progress (all of them:
     * step 2 done); a rejection that burned its e-NCF restarts the data tests (unless the document
     * was already accepted: a resend). An accepted simulation document may complete step 4.
     */
    async recordReception(review: TReceptionReview, track: TTrack): Promise<void> {
      const subject = review.subject;
      const accepted = track.codigo === 1 || track.codigo === 4;
      await certifications.withLocked(subject.rnc, async (sql, record) => {
        if (record === undefined) return;
        const at = now();
        if (subject.kind === 'simulation') {
          if (!accepted || record.step !== 'simulation_ecf') return;
          if ((await simulationProgress(record, sql)).done)
            await certifications.update(
              sql,
              record.rnc,
              { completedSteps: withCompleted(record.completedSteps, ['simulation_ecf'], at) },
              at,
            );
          return;
        }
        // A restart or a newer set since the review: this reception belongs to an earlier attempt.
        if (
          record.step !== 'data_tests_ecf' ||
          record.ecfSetId !== subject.setId ||
          record.dataEpoch !== subject.epoch
        )
          return;
        const set = await getSet(subject.setId, sql);
        if (set?.workbook.kind !== 'ecf_set') return;
        if (accepted) {
          await certifications.insertProgress(sql, {
            setId: subject.setId,
            epoch: subject.epoch,
            sheet: subject.sheet,
            encf: subject.encf,
            trackId: track.trackId,
            at,
          });
          const progress = await certifications.progressOf(sql, subject.setId, subject.epoch);
          if (dataItemsOf(set.workbook).every((item) => progress.has(`${item.sheet}:${item.encf}`)))
            await certifications.update(
              sql,
              record.rnc,
              { completedSteps: withCompleted(record.completedSteps, ['data_tests_ecf'], at) },
              at,
            );
          return;
        }
        // Rejected without burning (structure, signature…): the e-NCF is free and the row can be sent again.
        if (!track.secuenciaUtilizada) return;
        const progress = await certifications.progressOf(sql, subject.setId, subject.epoch);
        if (progress.has(`${subject.sheet}:${subject.encf}`)) return;
        const first = subject.mismatches[0];
        const text = track.mensajes[0]?.valor ?? '';
        await restartDataTests(
          sql,
          record,
          at,
          rejectionOf({
            encf: subject.encf,
            sheet: subject.sheet,
            mismatch: first !== undefined && text === mismatchText(first) ? first : undefined,
            text,
            trackId: track.trackId,
            at,
          }),
        );
      });
    },

    /**
     * An ACECF to the tax authority from a taxpayer at the approval tests, for a row of its set:
     * compared with the row (the nine columns; `MontoTotal` as an amount). A difference refuses it
     * with the field and both values; otherwise the approval goes on to the usual checks.
     */
    async reviewApproval(options: {
      environment: TEnvironment;
      xml: string;
      rncEmisor: string;
      encf: string;
      rncComprador: string;
    }): Promise<TApprovalReview | undefined> {
      if (options.environment !== CERTIFICATION_ENVIRONMENT) return undefined;
      const record = await certifications.get(options.rncComprador);
      if (record?.step !== 'data_tests_commercial_approval') return undefined;
      const set = await getSet(record.approvalSetId);
      if (set?.workbook.kind !== 'approval_set') return undefined;
      const row = set.workbook.approvals.find(
        (candidate) =>
          candidate.values['eNCF'] === options.encf && candidate.values['RNCEmisor'] === options.rncEmisor,
      );
      if (row === undefined) return undefined;
      const table = tableOf('ACECF');
      const received = leavesOfXml(options.xml, table);
      const mismatches =
        received === undefined
          ? [{ field: 'ACECF', expected: null, received: null }]
          : compareLeaves(leavesOfTree(approvalTree(row), table), received, { amounts: APPROVAL_AMOUNTS });
      if (mismatches.length === 0)
        return {
          subject: { rnc: record.rnc, setId: set.id, epoch: record.approvalEpoch, encf: options.encf },
        };
      const texts = mismatches.slice(0, MAX_LISTED_MISMATCHES).map(mismatchText);
      await certifications.withLocked(record.rnc, async (sql, current) => {
        if (current === undefined) return;
        const at = now();
        await certifications.update(
          sql,
          current.rnc,
          {
            lastApprovalRejection: rejectionOf({
              encf: options.encf,
              sheet: APPROVAL_SHEET,
              mismatch: mismatches[0],
              text: texts[0] ?? '',
              trackId: null,
              at,
            }),
          },
          at,
        );
      });
      return { refusal: texts };
    },

    /** An approval of the set was accepted: progress; every row received completes step 3. */
    async recordApproval(subject: {
      rnc: string;
      setId: number;
      epoch: number;
      encf: string;
    }): Promise<void> {
      await certifications.withLocked(subject.rnc, async (sql, record) => {
        if (
          record?.step !== 'data_tests_commercial_approval' ||
          record.approvalSetId !== subject.setId ||
          record.approvalEpoch !== subject.epoch
        )
          return;
        const set = await getSet(subject.setId, sql);
        if (set?.workbook.kind !== 'approval_set') return;
        const at = now();
        await certifications.insertProgress(sql, {
          setId: subject.setId,
          epoch: subject.epoch,
          sheet: APPROVAL_SHEET,
          encf: subject.encf,
          trackId: null,
          at,
        });
        const progress = await certifications.progressOf(sql, subject.setId, subject.epoch);
        if (
          set.workbook.approvals.every((row) => progress.has(`${APPROVAL_SHEET}:${row.values['eNCF'] ?? ''}`))
        )
          await certifications.update(
            sql,
            record.rnc,
            {
              completedSteps: withCompleted(record.completedSteps, ['data_tests_commercial_approval'], at),
              simulationFrom: at,
            },
            at,
          );
      });
    },

    /** Reserves an eNCF of the test issuer (its e-CF in a reception test). */
    async nextTestIssuerEncf(type: string): Promise<string> {
      const first = await certifications.reserveSequences(
        CERTIFICATION_ENVIRONMENT,
        TAXAUTH_TEST_ISSUER_RNC,
        type,
        1,
      );
      return formatEncf(type, first);
    },

    /** Records documents of the test issuer as accepted (see the store's `recordIssuedDocuments`). */
    recordIssuedDocuments: (documents: Parameters<typeof certifications.recordIssuedDocuments>[0]) =>
      certifications.recordIssuedDocuments(documents),
    /** The taxpayer's accepted CerteCF e-CF an ACECF may answer, newest first. */
    approvableDocumentsOf: (rnc: string) => certifications.approvableDocumentsOf(rnc),

    /**
     * The directory of an environment: the configured entries listed there, and in `ecf` every
     * finished certification with its production URLs (unless the configuration lists its RNC).
     */
    async directoryOf(
      environment: TEnvironment,
      configured: readonly TDirectoryEntry[],
    ): Promise<TDirectoryEntry[]> {
      const listed = configured.filter(
        (entry) => entry.environments === undefined || entry.environments.includes(environment),
      );
      if (environment !== 'ecf') return listed;
      const known = new Set(listed.map((entry) => entry.rnc));
      for (const finished of await certifications.finished()) {
        if (known.has(finished.rnc)) continue;
        listed.push({
          rnc: finished.rnc,
          ...(finished.legalName === null ? {} : { name: finished.legalName }),
          receptionUrl: finished.urls.receptionUrl,
          commercialApprovalUrl: finished.urls.commercialApprovalUrl,
          ...(finished.urls.authenticationUrl === null
            ? {}
            : { authenticationUrl: finished.urls.authenticationUrl }),
        });
      }
      return listed;
    },
  };
}
