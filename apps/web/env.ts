/**
 * The portal's environment, read once. `NEXT_PUBLIC_*` values are inlined by Next.js at build time
 * (they must be read as `process.env.NEXT_PUBLIC_...` literally for that).
 */
export const env = {
  /** The REST API the portal links to. */
  apiUrl: process.env.NEXT_PUBLIC_API_URL ?? 'http://127.0.0.1:3000',
};
