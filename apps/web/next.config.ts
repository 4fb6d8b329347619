import type { NextConfig } from 'next';

/**
 * The server packages (@ecf/services, @ecf/db and what they import) are NOT bundled: the server
 * imports them at run time from their TypeScript sources through tsx (`NODE_OPTIONS=--import tsx`
 * in the package scripts), exactly as the API and the worker run them. Bundled, their files lose
 * `import.meta.dirname` (migrations, XSDs), the dynamic import of @ecf/printing and their native
 * and wasm modules. Turbopack cannot leave workspace packages external (vercel/next.js#84388), so
 * builds use webpack, whose `externals` can.
 */
const SERVER_PACKAGES = /^@ecf\/(services|db|fiscal-core|printing|taxauth-client|config)(\/|$)/;

/** Security headers of every answer; the pages' nonce'd CSP comes from proxy.ts. */
const SECURITY_HEADERS = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // Links carry single-use tokens (invitations, resets): no page's address leaves with a request.
  { key: 'Referrer-Policy', value: 'no-referrer' },
  {
    key: 'Permissions-Policy',
    value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
];

type TExternals = (
  data: { request?: string },
  callback: (error?: Error | null, result?: string) => void,
) => void;

const config: NextConfig = {
  // @ecf/ui is React source with CSS modules, @ecf/contract the shapes the pages share with the API:
  // TypeScript compiled into the pages (client and server).
  transpilePackages: ['@ecf/ui', '@ecf/contract'],
  typedRoutes: false,
  poweredByHeader: false,
  // The portal is type-checked by `npm run typecheck` (tsc over the workspace), once.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    authInterrupts: true,
    // The request edge (issue 25; README "The request edge"): no page takes a body (there are no
    // server actions; forms go through tRPC or next-auth's route, each with its own limits), so
    // Next.js need not copy up to 10 MB of a page request's body for proxy.ts, nor read 1 MB for
    // a server action.
    proxyClientMaxBodySize: 64 * 1024,
    serverActions: { bodySizeLimit: 64 * 1024 },
  },
  async headers() {
    return [
      // Every page but the embedded certification page, which its CSP lets one Partner origin frame (proxy.ts).
      { source: '/((?!embed/).*)', headers: SECURITY_HEADERS },
      {
        source: '/embed/:path*',
        headers: SECURITY_HEADERS.filter((header) => header.key !== 'X-Frame-Options'),
      },
      {
        // JSON answers: nothing in them may run or be framed.
        source: '/api/:path*',
        headers: [{ key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" }],
      },
    ];
  },
  webpack(webpackConfig: { externals: unknown[] }, context: { isServer: boolean }) {
    if (context.isServer) {
      const external: TExternals = ({ request }, callback) =>
        request !== undefined && SERVER_PACKAGES.test(request)
          ? callback(null, `module ${request}`)
          : callback();
      webpackConfig.externals.unshift(external);
    }
    return webpackConfig;
  },
};

export default config;
