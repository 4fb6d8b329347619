/** @jsxRuntime automatic */
import { useId, type ReactNode } from 'react';
import styles from './panel.module.css';

/**
 * A titled section of a page (`<section>` named by its `h2`). `id`: the section's anchor, for a
 * link to it from elsewhere on the page (an empty list's "create one").
 */
export function Panel(props: { title: ReactNode; children: ReactNode; headingLevel?: 2 | 3; id?: string }) {
  const headingId = useId();
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section id={props.id} className={styles.panel} aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.title}>
        {props.title}
      </Heading>
      {props.children}
    </section>
  );
}
