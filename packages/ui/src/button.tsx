/** @jsxRuntime automatic */
// (The pragma keeps the JSX runtime explicit when this source is compiled from another workspace by tsx.)
import { useId, type AnchorHTMLAttributes, type ButtonHTMLAttributes, type ReactNode } from 'react';
import styles from './button.module.css';

export type TButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

function classesOf(variant: TButtonVariant, size: 'normal' | 'small', extra?: string) {
  return [styles.button, styles[variant], size === 'small' ? styles.small : undefined, extra]
    .filter(Boolean)
    .join(' ');
}

/**
 * A button. `busy` disables it and says so to assistive technology (`aria-busy`) while an action
 * runs; `type` defaults to `button` (a form's submit button says `type="submit"`). An action that
 * cannot apply yet passes `disabledReason`: the button is disabled and the reason is shown next to
 * it and tied to it (`aria-describedby`), so nobody is left guessing why it does nothing.
 */
export function Button(
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    variant?: TButtonVariant;
    size?: 'normal' | 'small';
    busy?: boolean;
    /** Why the action cannot apply now; given, the button is disabled. */
    disabledReason?: ReactNode;
    children: ReactNode;
  },
) {
  const {
    variant = 'primary',
    size = 'normal',
    busy = false,
    className,
    type = 'button',
    disabled,
    disabledReason,
    ...rest
  } = props;
  const reasonId = useId();
  const unavailable = disabledReason !== undefined && disabledReason !== null && disabledReason !== false;
  const button = (
    <button
      {...rest}
      type={type}
      disabled={disabled === true || busy || unavailable}
      aria-busy={busy || undefined}
      aria-describedby={
        unavailable
          ? [rest['aria-describedby'], reasonId].filter(Boolean).join(' ')
          : rest['aria-describedby']
      }
      className={classesOf(variant, size, className)}
    />
  );
  if (!unavailable) return button;
  return (
    <span className={styles.withReason}>
      {button}
      <span id={reasonId} className={styles.reason} data-disabled-reason="">
        {disabledReason}
      </span>
    </span>
  );
}

/** A link that looks like a button (navigation, not an action). */
export function LinkButton(
  props: AnchorHTMLAttributes<HTMLAnchorElement> & {
    href: string;
    variant?: TButtonVariant;
    size?: 'normal' | 'small';
    children: ReactNode;
  },
) {
  const { variant = 'secondary', size = 'normal', className, ...rest } = props;
  return <a {...rest} className={classesOf(variant, size, className)} />;
}
