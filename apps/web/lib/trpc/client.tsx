'use client';
/**
 * tRPC + TanStack Query for client components. Wrap once (the portal's root layout does):
 *
 *   const trpc = useTRPC();
 *   const members = useQuery(trpc.members.list.queryOptions());
 *   const invite = useMutation(trpc.invitations.create.mutationOptions({ onSuccess: () => router.refresh() }));
 *
 * Requests go to /api/trpc as batched GETs (queries) and JSON POSTs (mutations) from this origin,
 * which is what the endpoint accepts (server/trpc/http.ts). Only the router's TYPE is imported here.
 */
import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/routers/root.ts';
import { MAX_BATCH_PROCEDURES } from './batch.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function TrpcReactProvider(props: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Server components render first; client queries refresh, they do not refetch on every focus.
          queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false },
          mutations: { retry: false },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: '/api/trpc', maxItems: MAX_BATCH_PROCEDURES })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {props.children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
