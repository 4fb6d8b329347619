/** @jsxRuntime automatic */
import type { ReactNode } from 'react';
import { LinkButton } from './button.tsx';
import styles from './empty-state.module.css';

/**
 * What an empty list says (issue 27): what is missing, what to do next, and ONE primary action (a
 * link styled as the primary button) when the person may do it. Without an action the text says
 * who can. A Table's `empty` or a block of its own.
 */
export function EmptyState(props: {
  title: ReactNode;
  /** The next step, in a sentence. */
  children?: ReactNode;
  action?: { href: string; label: ReactNode } | null;
}) {
  return (
    <div className={styles.emptyState}>
      <p className={styles.title}>{props.title}</p>
      {props.children ? <p className={styles.next}>{props.children}</p> : null}
      {props.action ? (
        <p className={styles.action}>
          <LinkButton href={props.action.href} variant="primary">
            {props.action.label}
          </LinkButton>
        </p>
      ) : null}
    </div>
  );
}
