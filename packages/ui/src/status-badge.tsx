/** @jsxRuntime automatic */
import type { ReactNode } from 'react';
import styles from './status-badge.module.css';

export type TStatusTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/**
 * A short status label (a document's status, a role, "expired"). The tone is decoration: the text
 * itself must say the status (colour is never the only signal).
 */
export function StatusBadge(props: { tone?: TStatusTone; children: ReactNode }) {
  return <span className={[styles.badge, styles[props.tone ?? 'neutral']].join(' ')}>{props.children}</span>;
}
