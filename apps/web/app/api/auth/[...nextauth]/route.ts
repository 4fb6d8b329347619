import NextAuth from 'next-auth';
import { authOptions } from '../../../../auth/auth-options.ts';

export const dynamic = 'force-dynamic';

type TRouteContext = { params: Promise<{ nextauth: string[] }> };

/** next-auth's routes (sign-in, CSRF token, sign-out); its options are built at request time (env). */
function handler(request: Request, context: TRouteContext): Promise<Response> {
  return (
    NextAuth as unknown as (
      request: Request,
      context: TRouteContext,
      options: ReturnType<typeof authOptions>,
    ) => Promise<Response>
  )(request, context, authOptions());
}

export { handler as GET, handler as POST };
