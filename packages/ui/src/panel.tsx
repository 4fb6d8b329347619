/** @jsxRuntime automatic */
import { useId, type ReactNode } from 'react';
import styles from './panel.module.css';

/** A titled section of a page (`<section>` named by its `h2`). */
export function Panel(props: { title: ReactNode; children: ReactNode; headingLevel?: 2 | 3 }) {
  const headingId = useId();
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.title}>
        {props.title}
      </Heading>
      {props.children}
    </section>
  );
}
