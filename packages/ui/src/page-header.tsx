/** @jsxRuntime automatic */
import type { ReactNode } from 'react';
import styles from './page-header.module.css';

/** The page's one `h1`, a description and the page's main actions. */
export function PageHeader(props: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className={styles.header}>
      <div>
        <h1 className={styles.title}>{props.title}</h1>
        {props.description === undefined ? null : <p className={styles.description}>{props.description}</p>}
      </div>
      {props.actions === undefined ? null : <div className={styles.actions}>{props.actions}</div>}
    </header>
  );
}
