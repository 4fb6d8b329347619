/**
 * tRPC for server components' first renders: the SAME procedures the browser calls (same session
 * check, same tenant scoping and permissions, same audit of support's views), called in-process.
 *
 *   const api = await serverApi();
 *   const { members } = await api.members.list();          // throws TRPCError like the client gets
 *   const member = await orNotFound(api.members.get({ membershipId }));  // 404 page for NOT_FOUND
 *
 * `orNotFound` turns NOT_FOUND into Next's not-found page; `renderProcedureError` (components)
 * shows FORBIDDEN and the rest. Signed-out and tenant-less sessions never reach a page body: the
 * portal layout redirects them first.
 */
import 'server-only';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { TRPCError } from '@trpc/server';
import { appRouter } from '../routers/root.ts';
import { createCallerFactory } from './init.ts';
import { createRequestContext } from './request-context.ts';

const createCaller = createCallerFactory(appRouter);

/** The caller of the current request (one context per request). */
export const serverApi = cache(async () => createCaller(await createRequestContext()));

/** Resolves the procedure's answer; Next's not-found page when it is NOT_FOUND (another tenant's id included). */
export async function orNotFound<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
}
