/** @jsxRuntime automatic */
import type { ReactNode } from 'react';
import styles from './technical-details.module.css';

/**
 * Raw text a person rarely needs (issue 27, "Plain Spanish"): the tax authority's own answer (an IIS
 * HTML error page), a library's error with its URL, a transport's message. It sits behind a
 * collapsed "Detalles técnicos" disclosure (a native `<details>`, closed by default), with the
 * Spanish sentence that says what happened in front of it (`children`). The raw text is shown as
 * text in a `<pre>`, never interpreted as HTML. Renders only the sentence when there is no raw text.
 */
export function TechnicalDetails(props: {
  /** The Spanish sentence shown first (optional: a table cell may carry its own). */
  children?: ReactNode;
  /** What the system said, as it said it. */
  technical: string | null | undefined;
  /** The disclosure's label; "Detalles técnicos" unless a page must tell several apart. */
  summary?: ReactNode;
}) {
  const technical = props.technical?.trim() ?? '';
  return (
    <div className={styles.technicalDetails}>
      {props.children === undefined || props.children === null ? null : (
        <p className={styles.sentence}>{props.children}</p>
      )}
      {technical === '' ? null : (
        <details className={styles.details} data-technical-details="">
          <summary className={styles.summary}>{props.summary ?? 'Detalles técnicos'}</summary>
          {/* Focusable: a long answer scrolls inside its box (keyboard scrolling, axe scrollable-region-focusable). */}
          <pre className={styles.raw} tabIndex={0}>
            {technical}
          </pre>
        </details>
      )}
    </div>
  );
}
