import NextAuth from 'next-auth';
import { authOptions } from '../../../../auth/auth-options.ts';
import { boundedAuthRequest } from '../../../../server/auth-request.ts';

export const dynamic = 'force-dynamic';

type TRouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's routes (sign-in, CSRF token, sign-out); its options are built at request time (env).
 * A POST's body is read first under the edge's limits (server/auth-request.ts): next-auth would
 * read any size.
 */
async function handler(request: Request, context: TRouteContext): Promise<Response> {
  const bounded = await boundedAuthRequest(request);
  if (bounded instanceof Response) return bounded;
  return (
    NextAuth as unknown as (
      request: Request,
      context: TRouteContext,
      options: ReturnType<typeof authOptions>,
    ) => Promise<Response>
  )(bounded, context, authOptions());
}

export { handler as GET, handler as POST };
