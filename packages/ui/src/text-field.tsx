/** @jsxRuntime automatic */
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import styles from './field.module.css';

/**
 * A labelled input with its hint and its error message. The error is announced with the field
 * (`aria-describedby`, `aria-invalid`), so a screen reader reads "Correo electrónico, no válido:
 * ..." when the field gets focus.
 */
export function TextField(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
    label: ReactNode;
    name: string;
    error?: string | null;
    hint?: ReactNode;
    id?: string;
  },
) {
  const { label, error, hint, id, required, className, ...input } = props;
  const generated = useId();
  const inputId = id ?? `field-${generated}`;
  const hintId = hint === undefined ? undefined : `${inputId}-hint`;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
        {required ? (
          <span className={styles.required} aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {hint === undefined ? null : (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      <input
        {...input}
        id={inputId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={[styles.control, className].filter(Boolean).join(' ')}
      />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
