/**
 * The certification portal's admin routes under `/_sim/certification` (README "Certification
 * portal"): what a person at the tax authority's portal does — register an application, hand out
 * or load the workbooks, record the URLs and the human judgements, start the reception tests,
 * restart a part — and the status of each taxpayer. Registered in a scope of their own so the
 * xlsx body parsers apply to these routes only.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { missingBefore } from '../certification/steps.ts';
import { runReceptionTest } from '../certification/reception-tests.ts';
import { ATTESTED_STEPS } from '../certification/steps.ts';
import type { TSimContext } from '../context.ts';

/** The content type of an xlsx workbook. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Largest workbook upload (raw, or as base64 in JSON); the tax authority's sets are well below it. */
const WORKBOOK_BODY_LIMIT = 2 * 1024 * 1024;

const ZRncParams = z.object({ rnc: z.string().regex(/^(\d{9}|\d{11})$/) });
const ZWorkbookParams = ZRncParams.extend({ kind: z.enum(['ecf', 'approvals']) });
const ZRegisterBody = z
  .object({ legalName: z.string().trim().min(1).max(250).optional() })
  .strict()
  .optional();
const ZWorkbookJson = z.object({ workbookBase64: z.base64().min(1) }).strict();
const ZHttpUrl = z.url({ protocol: /^https?$/ });
const ZUrlsBody = z
  .object({
    kind: z.enum(['test', 'production']),
    receptionUrl: ZHttpUrl,
    commercialApprovalUrl: ZHttpUrl,
    authenticationUrl: ZHttpUrl.optional(),
  })
  .strict();
const ZAttestationBody = z
  .object({
    step: z.enum(ATTESTED_STEPS),
    outcome: z.enum(['approved', 'rejected']).default('approved'),
    notes: z.string().max(2000).optional(),
  })
  .strict();
const ZReceptionTestBody = z.object({ kind: z.enum(['ecf', 'commercial_approval']) }).strict();
const ZResetBody = z.object({ part: z.enum(['data', 'simulation']) }).strict();

/** The admin API's error answer (`{ ok: false, error: { code, message, details } }`). */
function fail(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
) {
  return reply.code(status).send({ ok: false, error: { code, message, details } });
}

function invalid(reply: FastifyReply, issues: z.core.$ZodIssue[]) {
  return fail(reply, 400, 'INVALID_CERTIFICATION_REQUEST', 'The request is not valid.', {
    issues: issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  });
}

function notFound(reply: FastifyReply, rnc: string) {
  return fail(reply, 404, 'CERTIFICATION_NOT_FOUND', `No certification is registered for RNC ${rnc}.`, {
    rnc,
  });
}

function prerequisites(reply: FastifyReply, step: string, missing: readonly string[]) {
  return fail(
    reply,
    409,
    'CERTIFICATION_PREREQUISITES_MISSING',
    `The steps before ${step} are not all done: ${missing.join(', ')}.`,
    { step, missing },
  );
}

export function registerCertificationRoutes(app: FastifyInstance, context: TSimContext): void {
  const portal = context.certification;
  app.addContentTypeParser(
    [XLSX_CONTENT_TYPE, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: WORKBOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  /** The status, or a 404 answer. */
  const answerStatus = async (reply: FastifyReply, rnc: string, code = 200) => {
    const status = await portal.status(rnc);
    return status === undefined ? notFound(reply, rnc) : reply.code(code).send(status);
  };

  app.post('/_sim/certification/:rnc', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const body = ZRegisterBody.safeParse(request.body ?? undefined);
    if (!body.success) return invalid(reply, body.error.issues);
    const { created } = await portal.register(params.data.rnc, body.data?.legalName ?? null);
    return answerStatus(reply, params.data.rnc, created ? 201 : 200);
  });

  app.get('/_sim/certification/:rnc', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    return answerStatus(reply, params.data.rnc);
  });

  app.get('/_sim/certification/:rnc/workbooks/:kind', async (request, reply) => {
    const params = ZWorkbookParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const file = await portal.workbookFile(params.data.rnc, params.data.kind === 'ecf' ? 'ecf' : 'approval');
    if (file === undefined) return notFound(reply, params.data.rnc);
    return reply
      .code(200)
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .send(Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength));
  });

  app.put(
    '/_sim/certification/:rnc/workbooks/:kind',
    { bodyLimit: WORKBOOK_BODY_LIMIT },
    async (request, reply) => {
      const params = ZWorkbookParams.safeParse(request.params);
      if (!params.success) return invalid(reply, params.error.issues);
      let content: Uint8Array;
      if (Buffer.isBuffer(request.body)) {
        content = new Uint8Array(request.body);
      } else {
        const json = ZWorkbookJson.safeParse(request.body);
        if (!json.success)
          return fail(
            reply,
            400,
            'INVALID_CERTIFICATION_REQUEST',
            `Send the workbook as the body (${XLSX_CONTENT_TYPE} or application/octet-stream) or as JSON { workbookBase64 }.`,
            {
              issues: json.error.issues.map((issue) => ({
                path: issue.path.join('.'),
                message: issue.message,
              })),
            },
          );
        content = new Uint8Array(Buffer.from(json.data.workbookBase64, 'base64'));
      }
      const { rnc } = params.data;
      const kind = params.data.kind === 'ecf' ? 'ecf' : 'approval';
      const loaded = await portal.loadWorkbook(rnc, kind, content);
      switch (loaded.refusal) {
        case 'unreadable':
          return fail(
            reply,
            400,
            'WORKBOOK_UNREADABLE',
            'The workbook cannot be read as a certification set.',
            {
              errors: loaded.errors,
            },
          );
        case 'wrong_kind':
          return fail(
            reply,
            400,
            'WORKBOOK_KIND_MISMATCH',
            `The workbook is ${loaded.found === 'ecf' ? 'a data-test set (ECF, RFCE)' : 'an approval set (ACEECF_Generadas)'}, not the one this route loads.`,
            { found: loaded.found },
          );
        case 'rnc_mismatch':
          return fail(
            reply,
            422,
            'WORKBOOK_RNC_MISMATCH',
            `The workbook is for RNC ${loaded.found}, not ${rnc}.`,
            { rnc, workbookRnc: loaded.found },
          );
        case 'finished':
          return fail(reply, 409, 'CERTIFICATION_FINISHED', `The certification of ${rnc} is finished.`, {
            rnc,
          });
        default:
          return answerStatus(reply, rnc, loaded.created ? 201 : 200);
      }
    },
  );

  app.put('/_sim/certification/:rnc/urls', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const body = ZUrlsBody.safeParse(request.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const { kind, receptionUrl, commercialApprovalUrl, authenticationUrl } = body.data;
    const registered = await portal.registerUrls(params.data.rnc, kind, {
      receptionUrl,
      commercialApprovalUrl,
      authenticationUrl: authenticationUrl ?? null,
    });
    if (registered === undefined) return notFound(reply, params.data.rnc);
    if (registered.missing !== null)
      return prerequisites(
        reply,
        kind === 'test' ? 'test_service_urls' : 'production_service_urls',
        registered.missing,
      );
    return answerStatus(reply, params.data.rnc);
  });

  app.post('/_sim/certification/:rnc/attestations', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const body = ZAttestationBody.safeParse(request.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const attested = await portal.attest(params.data.rnc, {
      step: body.data.step,
      outcome: body.data.outcome,
      notes: body.data.notes ?? null,
    });
    if (attested === undefined) return notFound(reply, params.data.rnc);
    if (attested.refusal === 'prerequisites') return prerequisites(reply, body.data.step, attested.missing);
    if (attested.refusal === 'already_done')
      return fail(
        reply,
        409,
        'CERTIFICATION_STEP_ALREADY_DONE',
        `The step ${body.data.step} is already done.`,
        {
          step: body.data.step,
        },
      );
    return answerStatus(reply, params.data.rnc, 201);
  });

  app.post('/_sim/certification/:rnc/reception-tests', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const body = ZReceptionTestBody.safeParse(request.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const { rnc } = params.data;
    const record = await portal.get(rnc);
    if (record === undefined) return notFound(reply, rnc);
    const step = body.data.kind === 'ecf' ? 'reception_test_ecf' : 'reception_test_commercial_approval';
    const missing = missingBefore(step, record.completedSteps);
    if (missing.length > 0 || record.testUrls === null) return prerequisites(reply, step, missing);
    const report = await runReceptionTest({
      kind: body.data.kind,
      rnc,
      legalName: record.legalName,
      urls: record.testUrls,
      portal,
      validators: context.validators,
      now: context.now,
    });
    const updated = await portal.recordReceptionTest(rnc, body.data.kind, report);
    return reply.code(200).send({ ok: report.ok, calls: report.calls, step: updated?.step ?? record.step });
  });

  app.post('/_sim/certification/:rnc/reset', async (request, reply) => {
    const params = ZRncParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error.issues);
    const body = ZResetBody.safeParse(request.body);
    if (!body.success) return invalid(reply, body.error.issues);
    const restarted = await portal.restart(params.data.rnc, body.data.part);
    if (restarted === undefined) return notFound(reply, params.data.rnc);
    if (restarted.refusal === 'finished')
      return fail(
        reply,
        409,
        'CERTIFICATION_FINISHED',
        `The certification of ${params.data.rnc} is finished.`,
        {
          rnc: params.data.rnc,
        },
      );
    if (restarted.refusal === 'not_started') return prerequisites(reply, 'simulation_ecf', restarted.missing);
    return answerStatus(reply, params.data.rnc);
  });
}
