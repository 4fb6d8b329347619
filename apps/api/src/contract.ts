// The REST contract: response shapes shared by the routes and their tests. The OpenAPI
// document will be generated from this file (issue: direct account API).
import { z } from 'zod';

export const ZEnvironment = z.enum(['TesteCF', 'CerteCF', 'eCF']);

export const ZErrorResponse = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string().min(1), message: z.string().min(1), details: z.record(z.string(), z.unknown()) }),
  correlationId: z.string().min(1),
});

export const ZHealthResponse = z.object({
  ok: z.literal(true),
  status: z.literal('ok'),
  service: z.string(),
  version: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
  correlationId: z.string().min(1),
});

const ZCheck = z.object({
  ok: z.boolean(),
  latencyMs: z.number().int().nonnegative(),
  error: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const ZReadinessResponse = z.object({
  ok: z.boolean(),
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ storage: ZCheck, migrations: ZCheck, rateLimit: ZCheck }),
  correlationId: z.string().min(1),
});

export const ZContingencyItem = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  type: z.string(),
  status: z.literal('contingency'),
  since: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastDeferredAt: z.string().nullable(),
});

export const ZContingencyResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  items: z.array(ZContingencyItem),
  correlationId: z.string().min(1),
});
