/** @jsxRuntime automatic */
import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import styles from './field.module.css';

export type TSelectOption = { value: string; label: string; disabled?: boolean };

/** A labelled select with its hint and error message (announced like TextField's). */
export function Select(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> & {
    label: ReactNode;
    name: string;
    options: readonly TSelectOption[];
    error?: string | null;
    hint?: ReactNode;
    id?: string;
  },
) {
  const { label, options, error, hint, id, className, ...select } = props;
  const generated = useId();
  const selectId = id ?? `select-${generated}`;
  const hintId = hint === undefined ? undefined : `${selectId}-hint`;
  const errorId = error ? `${selectId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={selectId} className={styles.label}>
        {label}
      </label>
      {hint === undefined ? null : (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      <select
        {...select}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={[styles.control, className].filter(Boolean).join(' ')}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
