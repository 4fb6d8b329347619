/**
 * The portal's one tRPC instance. Errors reach the page with what a form needs and nothing more:
 * `appCode` and `details` of a services AppError, `fieldErrors` (path → message) of an input that
 * failed its zod schema; never a stack or an unexpected error's message.
 */
import { initTRPC } from '@trpc/server';
import { AppError } from '@ecf/services';
import type { TTrpcContext } from './context.ts';

/** The `data` members the portal adds to tRPC's error shape (see lib/trpc-errors.ts on the client). */
export type TPortalErrorData = {
  appCode: string | null;
  details: Record<string, unknown> | null;
  fieldErrors: Record<string, string> | null;
};

function pathOf(path: readonly (PropertyKey | { key: PropertyKey })[] | undefined): string {
  return (path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

export const t = initTRPC.context<TTrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const fieldErrors: Record<string, string> = {};
    // A ZodError (zod schemas are parsed with parseAsync) or a standard-schema error: both have issues.
    const issues = (cause as { issues?: unknown } | undefined)?.issues;
    if (error.code === 'BAD_REQUEST' && Array.isArray(issues))
      for (const issue of issues as { path?: (PropertyKey | { key: PropertyKey })[]; message: string }[])
        fieldErrors[pathOf(issue.path) || 'form'] ??= issue.message;
    const appError = cause instanceof AppError ? cause : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const data: typeof shape.data & TPortalErrorData = {
      ...shape.data,
      stack: undefined,
      appCode: appError?.code ?? null,
      details: appError?.details ?? null,
      fieldErrors: Object.keys(fieldErrors).length > 0 ? fieldErrors : null,
    };
    return { ...shape, message: internal ? 'Internal error' : shape.message, data };
  },
});

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
