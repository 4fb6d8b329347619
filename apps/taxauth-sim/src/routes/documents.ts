/**
 * Documents other than e-CF: commercial approval (ACECF, FACTS §1.8) and range annulment (ANECF, §1.9).
 * Both answer synchronously with the tax authority's verbatim messages.
 */
import { verifyXmlSignature } from '@ecf/fiscal-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizedCaller, type TSimContext } from '../context.ts';
import { answer, parseDayMonthYear, readXmlPart } from '../http.ts';
import { ANNULMENT_MESSAGES, APPROVAL_MESSAGES, STATES, fill } from '../messages.ts';
import { blocksOf, leafText, rootNameOf } from '../xml.ts';
import { visibleState } from './queries.ts';

type TEnvParams = { environment: string };

/** Types whose commercial approval is never required (FACTS §2). */
const APPROVAL_NOT_REQUIRED = ['32', '41', '43', '46', '47'];
const ENCF_PATTERN = /^E(31|32|33|34|41|43|44|45|46|47)(\d{10})$/;

/** The 10-digit sequence number of an eNCF (`E31` + 10 digits). */
function sequenceOf(encf: string): number {
  return Number(encf.slice(3));
}

/** The eNCF just before `encf` in its type's sequence. */
function encfBefore(encf: string): string {
  return `${encf.slice(0, 3)}${String(sequenceOf(encf) - 1).padStart(10, '0')}`;
}

type TChecked =
  | { ok: true; xml: string; signerId: string | undefined }
  | { ok: false; problem: 'file' | 'structure' | 'signature'; detail?: string };

/** File type, root, XSD and signature checks shared by both documents. */
async function readSignedDocument(
  context: TSimContext,
  request: FastifyRequest,
  root: 'ACECF' | 'ANECF',
): Promise<TChecked> {
  const part = await readXmlPart(request);
  if (!part.ok || rootNameOf(part.xml) === undefined) return { ok: false, problem: 'file' };
  if (rootNameOf(part.xml) !== root)
    return { ok: false, problem: 'structure', detail: `Se esperaba el elemento raíz ${root}` };
  if (context.loadTest) return { ok: true, xml: part.xml, signerId: undefined };
  const structure = context.validators.validateXml(part.xml, root);
  if (!structure.success)
    return {
      ok: false,
      problem: 'structure',
      detail: structure.issues
        .slice(0, 3)
        .map((issue) => issue.message)
        .join(' | '),
    };
  const signature = verifyXmlSignature(part.xml);
  if (!signature.valid) return { ok: false, problem: 'signature' };
  return { ok: true, xml: part.xml, signerId: signature.certificate.holderId };
}

export function registerDocumentRoutes(app: FastifyInstance, context: TSimContext): void {
  app.post<{ Params: TEnvParams }>(
    '/:environment/aprobacioncomercial/api/aprobacioncomercial',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      const refuse = (text: string | string[]): FastifyReply =>
        answer(request, reply, 400, 'RespuestaAprobacionComercial', {
          mensaje: Array.isArray(text) ? text : [text],
          estado: APPROVAL_MESSAGES.rejected,
          codigo: '2',
        });

      const document = await readSignedDocument(context, request, 'ACECF');
      if (!document.ok) {
        if (document.problem === 'file') return refuse(APPROVAL_MESSAGES.fileTypeInvalid);
        if (document.problem === 'signature') return refuse(APPROVAL_MESSAGES.signatureInvalid);
        return refuse(`${APPROVAL_MESSAGES.xsdInvalid}. ${document.detail ?? ''}`.trim());
      }
      const xml = document.xml;
      const rncEmisor = leafText(xml, 'RNCEmisor') ?? '';
      const encf = leafText(xml, 'eNCF') ?? '';
      const rncComprador = leafText(xml, 'RNCComprador') ?? '';
      if (
        claims.rnc !== rncComprador ||
        (document.signerId !== undefined && document.signerId !== rncComprador)
      ) {
        return refuse(fill(APPROVAL_MESSAGES.notDelegated, { rnc: rncComprador }));
      }
      // A taxpayer at the certification's approval tests: its ACECF must be the workbook row's.
      const certification = await context.certification.reviewApproval({
        environment,
        xml,
        rncEmisor,
        encf,
        rncComprador,
      });
      if (certification !== undefined && 'refusal' in certification) return refuse(certification.refusal);
      const type = ENCF_PATTERN.exec(encf)?.[1];
      if (type !== undefined && APPROVAL_NOT_REQUIRED.includes(type))
        return refuse(APPROVAL_MESSAGES.notRequiredForType);
      const tracks = await context.store.tracksOf(environment, rncEmisor, encf, 'ECF');
      if (tracks.length === 0) return refuse(APPROVAL_MESSAGES.invoiceNotFound);
      const now = context.now();
      const accepted = tracks.filter((track) => {
        const state = visibleState(track, now);
        return (
          state.codigo === STATES.accepted.codigo || state.codigo === STATES.acceptedConditionally.codigo
        );
      });
      const issued = parseDayMonthYear(leafText(xml, 'FechaEmision'))?.getTime();
      const total = Number(leafText(xml, 'MontoTotal'));
      const matching = accepted.find(
        (track) =>
          track.rncComprador === rncComprador &&
          Number(track.montoTotal) === total &&
          parseDayMonthYear(track.fechaEmision ?? undefined)?.getTime() === issued,
      );
      if (matching === undefined) return refuse(APPROVAL_MESSAGES.noValidEcf);
      await context.store.recordApproval({
        environment,
        rncEmisor,
        encf,
        rncComprador,
        estado: leafText(xml, 'Estado') ?? '',
        receivedAt: now,
      });
      if (certification !== undefined) await context.certification.recordApproval(certification.subject);
      return answer(request, reply, 200, 'RespuestaAprobacionComercial', {
        mensaje: [],
        estado: APPROVAL_MESSAGES.approved,
        codigo: '1',
      });
    },
  );

  app.post<{ Params: TEnvParams }>(
    '/:environment/anulacionrangos/api/operaciones/anularrango',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      let rnc: string = claims.rnc;
      const refuse = (mensajes: string[]): FastifyReply =>
        answer(request, reply, 400, 'RespuestaAnulacionRango', {
          rnc,
          codigo: '2',
          nombre: 'Rechazado',
          mensajes,
        });

      const document = await readSignedDocument(context, request, 'ANECF');
      if (!document.ok) {
        if (document.problem === 'file') return refuse([ANNULMENT_MESSAGES.fileTypeInvalid]);
        if (document.problem === 'signature') return refuse([ANNULMENT_MESSAGES.signatureInvalid]);
        return refuse([`${ANNULMENT_MESSAGES.xsdInvalid}. ${document.detail ?? ''}`.trim()]);
      }
      const xml = document.xml;
      rnc = leafText(xml, 'RncEmisor') ?? '';
      if (claims.rnc !== rnc || (document.signerId !== undefined && document.signerId !== rnc))
        return refuse([ANNULMENT_MESSAGES.notDelegated]);

      const ranges: Array<{ from: string; to: string }> = [];
      const problems: string[] = [];
      let total = 0;
      blocksOf(xml, 'Anulacion').forEach((annulment, index) => {
        if (leafText(annulment, 'NoLinea') !== String(index + 1)) problems.push(ANNULMENT_MESSAGES.lineOrder);
        const type = leafText(annulment, 'TipoeCF') ?? '';
        let lineCount = 0;
        const before = problems.length;
        for (const sequence of blocksOf(annulment, 'Secuencias')) {
          const from = (leafText(sequence, 'SecuenciaeNCFDesde') ?? '').toUpperCase();
          const to = (leafText(sequence, 'SecuenciaeNCFHasta') ?? '').toUpperCase();
          const fromMatch = ENCF_PATTERN.exec(from);
          const toMatch = ENCF_PATTERN.exec(to);
          if (fromMatch?.[1] !== type || toMatch?.[1] !== type)
            problems.push(`${ANNULMENT_MESSAGES.typeInvalid}: ${from} - ${to}`);
          else if (from > to) problems.push(`${ANNULMENT_MESSAGES.fromAfterTo}: ${from} - ${to}`);
          else {
            ranges.push({ from, to });
            lineCount += sequenceOf(to) - sequenceOf(from) + 1;
          }
        }
        // Counted only when every range of the line could be read (a bad range is reported instead).
        if (problems.length === before && Number(leafText(annulment, 'CantidadeNCFAnulados')) !== lineCount)
          problems.push(`${ANNULMENT_MESSAGES.countMismatch}: NoLinea ${index + 1}`);
        total += lineCount;
      });
      // The header's count comes first in the document (Encabezado precedes DetalleAnulacion).
      if (problems.length === 0 && Number(leafText(xml, 'CantidadeNCFAnulados')) !== total)
        problems.push(ANNULMENT_MESSAGES.countMismatch);
      if (problems.length > 0) return refuse([...new Set(problems)]);
      if (ranges.length === 0) return refuse([ANNULMENT_MESSAGES.typeInvalid]);

      // Injected `partial_annulment`: the last e-NCF of the last range is kept out of the annulment
      // (listed in the answer as not annulled), the rest is annulled as usual: codigo 3.
      const kept: string[] = [];
      const injected = (await context.store.hasActiveFaults())
        ? await context.store.takeFault(environment, 'anulacionrangos', ['partial_annulment'])
        : undefined;
      if (injected !== undefined) {
        const last = ranges.pop() as { from: string; to: string };
        kept.push(`${last.to} - ${last.to}`);
        if (last.from !== last.to) ranges.push({ from: last.from, to: encfBefore(last.to) });
      }

      const outcomes = await context.store.annulRanges(environment, rnc, ranges, context.now());
      const refused = ranges
        .filter((_range, index) => outcomes[index] === 'used')
        .map((range) => `${range.from} - ${range.to}`);
      if (refused.length === 0 && kept.length === 0)
        return answer(request, reply, 200, 'RespuestaAnulacionRango', {
          rnc,
          codigo: '1',
          nombre: 'Aceptado',
          mensajes: [ANNULMENT_MESSAGES.done],
        });
      if (refused.length === ranges.length && kept.length === 0)
        return refuse([`${ANNULMENT_MESSAGES.failed}: ${refused.join(', ')}`, ANNULMENT_MESSAGES.used]);
      return answer(request, reply, 200, 'RespuestaAnulacionRango', {
        rnc,
        codigo: '3',
        nombre: 'Aceptado Parcialmente',
        mensajes: [
          ANNULMENT_MESSAGES.partial,
          ...(refused.length > 0 ? [`${ANNULMENT_MESSAGES.used}: ${refused.join(', ')}`] : []),
          ...(kept.length > 0 ? [`${ANNULMENT_MESSAGES.failed}: ${kept.join(', ')}`] : []),
        ],
      });
    },
  );
}
