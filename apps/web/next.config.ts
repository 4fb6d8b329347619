import type { NextConfig } from 'next';

const config: NextConfig = {
  // Internal packages are TypeScript source; Next compiles them.
  transpilePackages: ['@ecf/ui'],
  typedRoutes: false,
};

export default config;
