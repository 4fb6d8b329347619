/**
 * The portal half: every procedure of the tRPC router (`appRouter`), called through the portal's
 * HTTP entry (`handleTrpcRequest`, the route handler's) with plain fetch Requests, for an owner, a
 * support user and a Partner administrator signed in with real sessions on a throwaway database.
 * Valid inputs come from each procedure's input schema (zod → JSON Schema → json-schema-faker), and
 * the same mutations as the API's. Procedures declare no error codes: an error must be tRPC's
 * shape with `data.code` and `data.httpStatus` equal to the status, and `data.appCode` null or a code
 * of the registry (ERROR_STATUS); a 2xx result must validate against the procedure's output schema.
 */
import { randomInt } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { ERROR_STATUS } from '@ecf/services';
import {
  appRouter,
  contextOf,
  exampleText,
  handleTrpcRequest,
  openPortalHarness,
  seedWorld,
  TRPC_ENDPOINT,
  type TPortalHarness,
  type TRole,
  type TWorld,
} from '@ecf/web/testing';
import { parsedOf, refusalMissed, registerWideRange } from './api-fuzz.ts';
import { preview, type TFinding } from './findings.ts';
import {
  fakeValue,
  mutate,
  sampleCases,
  setAt,
  unsupportedCharacterCases,
  type TBody,
  type TMutationName,
} from './mutations.ts';
import { hashOf, seedOf, type TFuzzOptions } from './options.ts';

const ORIGIN = 'https://portal.fuzz.test';
const ROLES_FUZZED: readonly TRole[] = ['owner', 'support', 'partnerAdmin'];
const MALFORMED_ENCF = ['abc', 'E31', 'E31000000010X', "' OR '1'='1"];

type TProcedure = {
  _def: { type: 'query' | 'mutation' | 'subscription'; inputs: unknown[]; output?: unknown };
};

function jsonSchemaOf(schema: unknown, io: 'input' | 'output'): Record<string, unknown> | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
      string,
      unknown
    >;
    delete json['$schema'];
    return json;
  } catch {
    return undefined;
  }
}

/** Ids of the world by member name: ours, and another tenant's for the cross-tenant cases. */
function idsOf(world: TWorld, whose: 'own' | 'other'): Record<string, string> {
  return whose === 'own'
    ? {
        tenantId: world.tenant.id,
        membershipId: world.target.membershipId ?? '',
        invitationId: world.pending.invitation.id,
        partnerId: world.partner.id,
        userId: world.users.owner.id,
      }
    : {
        tenantId: world.otherTenant.id,
        membershipId: world.otherOwner.membershipId ?? '',
        invitationId: world.pending.invitation.id,
        partnerId: world.partner.id,
        userId: world.otherOwner.id,
      };
}

/** Drops the optional page cursors a generator invents (a list refuses a cursor it did not give). */
function withoutCursors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCursors);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/cursor/i.test(key))
      .map(([key, item]) => [key, withoutCursors(item)]),
  );
}

/** Replaces members named like the world's ids (at any depth) with those ids. */
function withIds(value: unknown, ids: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withIds(item, ids));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      ids[key] !== undefined && typeof item === 'string' ? ids[key] : withIds(item, ids),
    ]),
  );
}

const ERROR_CODES = new Set(Object.keys(ERROR_STATUS));

type TCase = { role: TRole; label: string; body: TBody; mutation?: TMutationName };

export async function fuzzPortal(
  options: TFuzzOptions,
): Promise<{ procedures: number; cases: number; findings: TFinding[] }> {
  const harness: TPortalHarness = await openPortalHarness();
  const findings: TFinding[] = [];
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  let cases = 0;
  // The handler logs an unexpected error with console.error (its stack): kept for the finding.
  const errorLines: string[] = [];
  const originalError = console.error;
  console.error = (...items: unknown[]) => {
    errorLines.push(
      items.map((item) => (item instanceof Error ? (item.stack ?? item.message) : String(item))).join(' '),
    );
  };
  try {
    const procedures = Object.entries(
      (appRouter as unknown as { _def: { procedures: Record<string, TProcedure> } })._def.procedures,
    )
      .filter(([path]) => (options.only === undefined ? true : path.includes(options.only)))
      .sort(([left], [right]) => left.localeCompare(right));
    for (const [path, procedure] of procedures) {
      const type = procedure._def.type;
      if (type === 'subscription') continue;
      const seed = seedOf(options.seed, hashOf(path));
      const inputSchema = jsonSchemaOf(procedure._def.inputs[0], 'input');
      const outputSchema = jsonSchemaOf(procedure._def.output, 'output');
      let validateOutput: ValidateFunction | undefined;
      try {
        validateOutput = outputSchema ? ajv.compile(outputSchema) : undefined;
      } catch {
        validateOutput = undefined;
      }
      // A fresh world per procedure: a mutation (sign out everywhere, remove a member) cannot starve the next.
      const world = await seedWorld(harness.database);
      await registerWideRange(harness.database, world.tenant.id, 'TesteCF');
      const parser = procedure._def.inputs[0];
      const accepts = (value: unknown) => parser instanceof z.ZodType && parser.safeParse(value).success;
      const base = (index: number, whose: 'own' | 'other' = 'own'): unknown => {
        if (inputSchema === undefined || accepts(undefined)) return undefined;
        if (path.startsWith('tryIt.') && 'json' in ((inputSchema['properties'] as object | undefined) ?? {}))
          return {
            ...(fakeValue(inputSchema, seed + index) as object),
            json: exampleText('e31', String(randomInt(0, 1e10)).padStart(10, '0')),
          };
        // json-schema-faker's candidates, kept when the procedure's own schema accepts them (the JSON
        // Schema cannot say everything zod checks: coercions, refinements); cursors are never invented.
        let value: unknown;
        for (let attempt = 0; attempt < 8; attempt += 1) {
          value = withIds(
            withoutCursors(fakeValue(inputSchema, seed + index + attempt * 7919)),
            idsOf(world, whose),
          );
          if (accepts(value)) break;
        }
        return value;
      };
      const list: TCase[] = [];
      for (const role of ROLES_FUZZED) {
        const kinds = role === 'owner' ? 4 : 1;
        for (let index = 0; index < options.runs; index += 1)
          list.push({ role, label: 'generated from the schema', body: { kind: 'json', value: base(index) } });
        if (inputSchema === undefined) continue;
        sampleCases(seed + ROLES_FUZZED.indexOf(role), options.runs * kinds).forEach((draw, index) => {
          const { label, body, mutation } = mutate(
            base(index) ?? fakeValue(inputSchema, seed + index) ?? {},
            draw,
          );
          list.push({ role, label, body, mutation });
        });
      }
      if (inputSchema !== undefined) {
        list.push({
          role: 'owner',
          label: "another tenant's ids",
          body: { kind: 'json', value: base(0, 'other') },
        });
        if (type === 'mutation')
          for (const { label, body, mutation } of unsupportedCharacterCases(base(1), seed))
            list.push({
              role: path.startsWith('partner.') ? 'partnerAdmin' : 'owner',
              label,
              body,
              mutation,
            });
        const sample = base(0);
        // Item 1 through Try it: the pasted JSON's encf is not eNCF-shaped.
        if (path.startsWith('tryIt.') && sample !== null && typeof sample === 'object' && 'json' in sample) {
          const submission = JSON.parse(String(sample.json)) as unknown;
          for (const encf of MALFORMED_ENCF)
            list.push({
              role: 'owner',
              label: `malformed encf ${JSON.stringify(encf)} in the pasted JSON`,
              body: {
                kind: 'json',
                value: { ...sample, json: JSON.stringify(setAt(submission, ['encf'], encf)) },
              },
            });
        }
      }
      const statuses = new Map<number, number>();
      for (const item of list) {
        cases += 1;
        errorLines.length = 0;
        const bytes =
          item.body.kind === 'json'
            ? item.body.value === undefined
              ? undefined
              : Buffer.from(JSON.stringify(item.body.value), 'utf8')
            : item.body.kind === 'raw'
              ? item.body.bytes
              : undefined;
        const url =
          type === 'query'
            ? `${ORIGIN}${TRPC_ENDPOINT}/${path}${bytes === undefined ? '' : `?input=${percentEncode(bytes)}`}`
            : `${ORIGIN}${TRPC_ENDPOINT}/${path}`;
        const headers: Record<string, string> =
          type === 'query'
            ? { 'sec-fetch-site': 'same-origin' }
            : {
                origin: ORIGIN,
                'content-type':
                  item.body.kind === 'raw'
                    ? (item.body.contentType ?? 'application/json')
                    : 'application/json',
              };
        const request = new Request(url, {
          method: type === 'query' ? 'GET' : 'POST',
          headers,
          ...(type === 'mutation' ? { body: new Uint8Array(bytes ?? []) } : {}),
        });
        const session = world.sessions[item.role] ?? null;
        let status = 0;
        let text = '';
        try {
          const response = await handleTrpcRequest(request, {
            publicOrigin: ORIGIN,
            createContext: () => Promise.resolve(contextOf(harness, session)),
          });
          status = response.status;
          text = await response.text();
        } catch (error) {
          text = `thrown: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (options.trace) console.log(`    ${status} ${item.role}: ${item.label} → ${preview(text, 200)}`);
        const problem =
          refusalMissed(item.mutation, type === 'mutation', status, () => {
            const parsed = parsedOf(text) as { result?: { data?: unknown } } | undefined;
            return parsed?.result?.data;
          }) ?? judge(status, text, validateOutput);
        if (problem !== null)
          findings.push({
            surface: 'portal',
            target: `${path} (${type})`,
            rule: problem,
            caseLabel: `${item.role}: ${item.label}`,
            request: `${request.method} ${preview(url, 300)} body=${type === 'mutation' ? preview(bytes, 400) : '(none)'}`,
            answer: `${status} ${preview(text, 600)}`,
            log: [...errorLines],
          });
      }
      if (options.verbose)
        console.log(
          `  ${path} (${type}): ${list.length} cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
        );
    }
    // The endpoint itself: unknown and garbled procedure names, batches, methods, sizes.
    const world = await seedWorld(harness.database);
    for (const item of endpointCases()) {
      cases += 1;
      errorLines.length = 0;
      let status = 0;
      let text = '';
      try {
        const response = await handleTrpcRequest(item.request(), {
          publicOrigin: ORIGIN,
          createContext: () => Promise.resolve(contextOf(harness, world.sessions.owner)),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        text = `thrown: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      }
      if (options.trace) console.log(`    ${status} endpoint: ${item.label} → ${preview(text, 200)}`);
      const problem = judge(status, text, undefined);
      if (problem !== null)
        findings.push({
          surface: 'portal',
          target: `${TRPC_ENDPOINT} (endpoint)`,
          rule: problem,
          caseLabel: item.label,
          request: item.label,
          answer: `${status} ${preview(text, 600)}`,
          log: [...errorLines],
        });
    }
    return { procedures: procedures.length, cases, findings };
  } finally {
    console.error = originalError;
    await harness.close();
  }
}

/** Bytes as a query value: every byte outside the unreserved set percent-encoded (invalid UTF-8 stays invalid). */
function percentEncode(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes)
    text += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return text;
}

/** Requests to the endpoint that name no procedure properly (fixed: they do not depend on the seed). */
function endpointCases(): Array<{ label: string; request: () => Request }> {
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(`${ORIGIN}${TRPC_ENDPOINT}/${path}`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
      body,
    });
  const get = (pathAndQuery: string) =>
    new Request(`${ORIGIN}${TRPC_ENDPOINT}/${pathAndQuery}`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
  const many = Array.from({ length: 200 }, () => 'members.list').join(',');
  return [
    { label: 'GET an unknown procedure', request: () => get('noSuch.procedure') },
    { label: 'GET a procedure named %FF', request: () => get('%FF') },
    { label: 'GET a procedure named %00', request: () => get('members.list%00') },
    { label: 'GET no procedure', request: () => get('') },
    { label: 'GET input=%FF%FE', request: () => get('members.list?input=%FF%FE') },
    { label: 'GET input twice', request: () => get('members.list?input=1&input=2') },
    { label: 'GET a batch of 200', request: () => get(`${many}?batch=1&input=%7B%7D`) },
    {
      label: 'GET a batch with a bad index',
      request: () => get('members.list,members.list?batch=1&input=%7B%22x%22%3A1%7D'),
    },
    { label: 'POST a batch of 200', request: () => post(`${many}?batch=1`, '{}') },
    {
      label: 'POST a batch, duplicate index',
      request: () =>
        post(
          'session.switchTenant,session.switchTenant?batch=1',
          '{"0":{"tenantId":"a"},"0":{"tenantId":"b"}}',
        ),
    },
    {
      label: 'POST a batch, invalid UTF-8 in the second input',
      request: () =>
        post(
          'session.switchTenant,session.switchTenant?batch=1',
          new Uint8Array(
            Buffer.concat([
              Buffer.from('{"0":{"tenantId":"a"},"1":{"tenantId":"'),
              Buffer.from([0xff]),
              Buffer.from('"}}'),
            ]),
          ),
        ),
    },
    { label: 'POST a batch with no index', request: () => post('session.switchTenant?batch=1', '[1,2,3]') },
    {
      label: 'POST 3 MB to Try it',
      request: () => post('tryIt.preflight', JSON.stringify({ json: 'x'.repeat(3_000_000) })),
    },
    {
      label: 'POST declaring more bytes than sent',
      request: () => post('tryIt.preflight', '{"json":"{}"}', { 'content-length': '1000' }),
    },
    { label: 'POST a query procedure', request: () => post('members.list', '{}') },
    {
      label: 'PUT a mutation',
      request: () =>
        new Request(`${ORIGIN}${TRPC_ENDPOINT}/session.signOutEverywhere`, {
          method: 'PUT',
          headers: { origin: ORIGIN },
        }),
    },
    {
      label: 'POST with charset=latin1',
      request: () =>
        post('session.switchTenant', '{"tenantId":"\u00e9"}', {
          'content-type': 'application/json; charset=latin1',
        }),
    },
  ];
}

function judge(status: number, text: string, validateOutput: ValidateFunction | undefined): string | null {
  if (status === 0) return 'the handler threw';
  if (status >= 500) return `${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the answer is not JSON';
  }
  // A batch answers one item per call, each a result or an error with its own status.
  if (Array.isArray(body))
    for (const item of body as Array<{ error?: { data?: Record<string, unknown> } }>) {
      const data = item.error?.data;
      if (item.error !== undefined && typeof data?.['code'] !== 'string')
        return 'a batch item is not the portal tRPC error shape';
      if (typeof data?.['httpStatus'] === 'number' && data['httpStatus'] >= 500)
        return `batch item ${data['httpStatus']}`;
    }
  if (Array.isArray(body)) return null;
  if (status >= 400) {
    const data = (body as { error?: { message?: unknown; data?: Record<string, unknown> } }).error?.data;
    if (typeof data?.['code'] !== 'string' || data['httpStatus'] !== status)
      return 'error is not the portal tRPC error shape';
    const appCode = data['appCode'];
    if (
      appCode !== undefined &&
      appCode !== null &&
      !(typeof appCode === 'string' && ERROR_CODES.has(appCode))
    )
      return `appCode ${JSON.stringify(appCode)} is not in the error registry`;
    return null;
  }
  const result = (body as { result?: { data?: unknown } }).result;
  if (result === undefined) return 'a 2xx without result';
  if (validateOutput === undefined || validateOutput(result.data)) return null;
  const first = validateOutput.errors?.[0];
  return `2xx result does not match the output schema (${first?.instancePath || '/'} ${first?.message ?? ''})`;
}
