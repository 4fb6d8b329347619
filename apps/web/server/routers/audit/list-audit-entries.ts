import { findAuditEntries } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListAuditEntriesInput, ZListAuditEntriesOutput } from './list-audit-entries.schema.ts';

/** The active tenant's audit log for its owners, newest first (support's views included). */
export const listAuditEntries = tenantProcedure('audit.read')
  .input(ZListAuditEntriesInput)
  .output(ZListAuditEntriesOutput)
  .query(async ({ ctx, input }) => {
    const page = await findAuditEntries({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      cursor: input.cursor ?? null,
      limit: input.limit,
    });
    return {
      items: page.items.map((entry) => ({
        id: entry.id,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        data: entry.data,
        ip: entry.ip,
        createdAt: entry.createdAt.toISOString(),
        actor:
          entry.actor === null
            ? null
            : { email: entry.actor.email, name: entry.actor.name, isSupport: entry.actor.isSupport },
      })),
      nextCursor: page.nextCursor,
    };
  });
