import type { ReactNode } from 'react';
import styles from './public.module.css';

/** Pages for people not signed in (sign-in, password reset, invitation): one narrow column. */
export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.frame}>
      <header className={styles.brand}>
        <a href="/" className={styles.brandLink}>
          Portal e-CF
        </a>
        <span className={styles.tagline}>Comprobantes fiscales electrónicos</span>
      </header>
      <main id="main" className={styles.card}>
        {children}
      </main>
    </div>
  );
}
