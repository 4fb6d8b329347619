/**
 * The most procedures one batched tRPC request may name: the client batches at most this many
 * (lib/trpc/client.tsx) and the endpoint refuses more before anything runs (server/trpc/http.ts),
 * so one request cannot fan out into hundreds of procedure calls.
 */
export const MAX_BATCH_PROCEDURES = 20;
