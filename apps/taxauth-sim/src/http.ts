/** Request and answer helpers shared by the tax authority's routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toXml } from './xml.ts';

export const ENVIRONMENTS = ['testecf', 'certecf', 'ecf'] as const;
export type TEnvironment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(value: string): value is TEnvironment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}

/** Where a request goes, for fault matching: environment and service (first segment after it). */
export type TTarget = { environment: TEnvironment | ''; service: string };

const STATUS_SERVICE = 'estatusservicios';

/**
 * The environment and service of a tax-authority path, lower case; undefined for the admin API and
 * unknown paths. The status host has no environment in DGII's paths (some clients add one).
 */
export function targetOf(url: string): TTarget | undefined {
  const path = (url.split('?')[0] ?? '').toLowerCase();
  const segments = path.split('/').filter((segment) => segment !== '');
  const first = segments[0];
  if (first === undefined || first === '_sim') return undefined;
  if (first === 'api' && segments[1] === STATUS_SERVICE) return { environment: '', service: STATUS_SERVICE };
  if (!isEnvironment(first)) return undefined;
  if (segments[1] === 'api' && segments[2] === STATUS_SERVICE)
    return { environment: first, service: STATUS_SERVICE };
  return segments[1] === undefined ? undefined : { environment: first, service: segments[1] };
}

/** A query parameter by name, ignoring the name's letter case (DGII and clients spell them differently). */
export function queryValue(request: FastifyRequest, ...names: string[]): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const wanted = names.map((name) => name.toLowerCase());
  for (const [key, value] of Object.entries(query)) {
    if (!wanted.includes(key.toLowerCase())) continue;
    const text: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof text === 'string' && text.trim() !== '') return text.trim();
  }
  return undefined;
}

/** The bearer token (DGII documents `bearer`, clients send `Bearer`). */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Whether the caller asked for the XML alternative of an answer. */
export function wantsXml(request: FastifyRequest): boolean {
  const accept = (request.headers.accept ?? '').toLowerCase();
  return accept.includes('xml') && !accept.includes('json');
}

/** Answers JSON, or the XML alternative rooted at `rootName` when the caller asked for XML. */
export function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  rootName: string,
  body: unknown,
): FastifyReply {
  reply.code(status);
  if (wantsXml(request) && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    return reply
      .type('application/xml; charset=utf-8')
      .send(toXml(rootName, body as Record<string, unknown>));
  }
  if (wantsXml(request) && Array.isArray(body)) {
    return reply
      .type('application/xml; charset=utf-8')
      .send(toXml(`ArrayOf${rootName}`, { [rootName]: body }));
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** ASP.NET Core's validation problem, as the tax authority's services answer a missing parameter. */
export function validationProblem(reply: FastifyReply, errors: Record<string, string[]>): FastifyReply {
  return reply.code(400).type('application/problem+json; charset=utf-8').send({
    type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
  });
}

export type TXmlPart =
  | { ok: true; xml: string; fileName: string | undefined }
  | { ok: false; problem: 'not-multipart' | 'missing' | 'empty' | 'no-content-length' };

/** Reads the multipart file part named `xml` (FACTS §1.1); other parts are drained and ignored. */
export async function readXmlPart(request: FastifyRequest): Promise<TXmlPart> {
  if (!request.isMultipart()) return { ok: false, problem: 'not-multipart' };
  // DGII refuses a multipart upload sent without a real Content-Length (chunked): "Multipart cannot
  // be empty" (FACTS §1.1). The body is drained so the connection stays usable.
  if (request.headers['content-length'] === undefined) {
    for await (const part of request.parts()) if (part.type === 'file') part.file.resume();
    return { ok: false, problem: 'no-content-length' };
  }
  let found: { xml: string; fileName: string | undefined } | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const buffer = await part.toBuffer();
      if (found === undefined && part.fieldname.toLowerCase() === 'xml')
        found = { xml: buffer.toString('utf8').replace(/^\uFEFF/, ''), fileName: part.filename || undefined };
    } else if (
      found === undefined &&
      part.fieldname.toLowerCase() === 'xml' &&
      typeof part.value === 'string'
    ) {
      found = { xml: part.value.replace(/^\uFEFF/, ''), fileName: undefined };
    }
  }
  if (found === undefined) return { ok: false, problem: 'missing' };
  if (found.xml.trim() === '') return { ok: false, problem: 'empty' };
  return { ok: true, ...found };
}

/** `M/d/yyyy h:mm:ss tt` in Dominican time (UTC-4), as `fechaRecepcion` arrives (FACTS §1.4). */
export function formatReceptionDate(date: Date): string {
  const local = new Date(date.getTime() - 4 * 3600_000);
  const hours = local.getUTCHours();
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${local.getUTCMonth() + 1}/${local.getUTCDate()}/${local.getUTCFullYear()} ${twelve}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** .NET round-trip time with seven fractional digits and the -04:00 offset (the seed's `fecha`). */
export function formatSeedDate(date: Date): string {
  const local = new Date(date.getTime() - 4 * 3600_000);
  return `${local.toISOString().slice(0, 19)}.${String(local.getUTCMilliseconds()).padStart(3, '0')}0000-04:00`;
}

/** `dd-MM-yyyy` → UTC midnight, or undefined. */
export function parseDayMonthYear(text: string | undefined): Date | undefined {
  const match = text === undefined ? null : /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text);
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCDate() === day && date.getUTCMonth() === month - 1 ? date : undefined;
}
