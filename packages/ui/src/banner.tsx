/** @jsxRuntime automatic */
import type { ReactNode } from 'react';
import styles from './banner.module.css';

export type TBannerTone = 'info' | 'success' | 'warning' | 'danger';

/**
 * A message across the page (contingency, certificate expiry, a form's error). Warnings and dangers
 * are `role="alert"` (announced at once); information and success `role="status"`.
 */
export function Banner(props: { tone?: TBannerTone; title?: ReactNode; children?: ReactNode; id?: string }) {
  const tone = props.tone ?? 'info';
  return (
    <div
      id={props.id}
      role={tone === 'warning' || tone === 'danger' ? 'alert' : 'status'}
      className={[styles.banner, styles[tone]].join(' ')}
    >
      {props.title === undefined ? null : <p className={styles.title}>{props.title}</p>}
      {props.children === undefined ? null : <div className={styles.body}>{props.children}</div>}
    </div>
  );
}
