import type { ReactNode } from 'react';

export const metadata = {
  title: 'e-CF Portal',
  description: 'Emisión y recepción de comprobantes fiscales electrónicos',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="es">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '2rem' }}>{children}</body>
    </html>
  );
}
