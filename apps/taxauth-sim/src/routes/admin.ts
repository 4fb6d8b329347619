/** The simulator's own admin API under `/_sim` (README "Admin API"): health, reset, faults and the directory. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { TSimContext } from '../context.ts';
import { directoryEntryOf, ZDirectoryEntryInput } from '../directory.ts';
import { FAULT_KINDS } from '../store.ts';

const ZFaultInput = z.object({
  environment: z.enum(['testecf', 'certecf', 'ecf', '*']),
  service: z
    .string()
    .min(1)
    .max(100)
    .regex(/^(\*|[A-Za-z]+)$/)
    .transform((value) => value.toLowerCase()),
  fault: z.enum(FAULT_KINDS),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  count: z.number().int().min(1).optional(),
});

function invalid(message: string, details: Record<string, unknown>) {
  return { ok: false, error: { code: 'INVALID_FAULT', message, details } };
}

export function registerAdminRoutes(app: FastifyInstance, context: TSimContext): void {
  app.get('/_sim/health', async () => ({ ok: true, status: 'ok', service: 'taxauth-sim' }));

  app.post('/_sim/reset', async (_request, reply) => {
    await context.store.reset();
    return reply.code(204).send();
  });

  app.post('/_sim/faults', async (request, reply) => {
    const parsed = ZFaultInput.safeParse(request.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      return reply.code(400).send(invalid('The fault is not valid.', { issues }));
    }
    const input = parsed.data;
    const fault = await context.store.addFault({
      environment: input.environment,
      service: input.service,
      fault: input.fault,
      delayMs: input.delayMs ?? null,
      remaining: input.count ?? null,
    });
    return reply.code(201).send({ id: fault.id });
  });

  app.get('/_sim/faults', async () => context.store.listFaults());

  app.delete('/_sim/faults', async (_request, reply) => {
    await context.store.clearFaults();
    return reply.code(204).send();
  });

  // Receivers added or replaced at run time (by RNC), in this process's memory: tests and the
  // development stack register the reception URLs of tenants they create.
  app.put('/_sim/directory', async (request, reply) => {
    const parsed = z.array(ZDirectoryEntryInput).min(1).max(1000).safeParse(request.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      return reply.code(400).send({
        ok: false,
        error: {
          code: 'INVALID_DIRECTORY',
          message: 'The directory entries are not valid.',
          details: { issues },
        },
      });
    }
    for (const entry of parsed.data.map(directoryEntryOf)) {
      const index = context.directory.findIndex((existing) => existing.rnc === entry.rnc);
      if (index === -1) context.directory.push(entry);
      else context.directory[index] = entry;
    }
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/_sim/faults/:id', async (request, reply) => {
    await context.store.deleteFault(request.params.id);
    return reply.code(204).send();
  });
}
