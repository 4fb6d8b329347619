/** @jsxRuntime automatic */
// (The pragma keeps the JSX runtime explicit when this source is compiled from another workspace by tsx.)
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import styles from './button.module.css';

export type TButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

function classesOf(variant: TButtonVariant, size: 'normal' | 'small', extra?: string) {
  return [styles.button, styles[variant], size === 'small' ? styles.small : undefined, extra]
    .filter(Boolean)
    .join(' ');
}

/**
 * A button. `busy` disables it and says so to assistive technology (`aria-busy`) while an action
 * runs; `type` defaults to `button` (a form's submit button says `type="submit"`).
 */
export function Button(
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    variant?: TButtonVariant;
    size?: 'normal' | 'small';
    busy?: boolean;
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
    ...rest
  } = props;
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled === true || busy}
      aria-busy={busy || undefined}
      className={classesOf(variant, size, className)}
    />
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
