import type { ReactNode } from 'react';
import { headers } from 'next/headers';
import '@ecf/ui/tokens.css';
import { TrpcReactProvider } from '../lib/trpc/client.tsx';

export const metadata = {
  title: { default: 'Portal e-CF', template: '%s · Portal e-CF' },
  description: 'Emisión y recepción de comprobantes fiscales electrónicos',
};

/**
 * Every page renders per request: the CSP nonce (proxy.ts) is new each time and Next.js can only
 * put it on its scripts while rendering (reading the headers makes the whole tree dynamic).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await headers();
  return (
    <html lang="es">
      <body>
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </body>
    </html>
  );
}
