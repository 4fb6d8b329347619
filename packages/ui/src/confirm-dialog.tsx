/** @jsxRuntime automatic */
'use client';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button.tsx';
import styles from './confirm-dialog.module.css';

/**
 * Asks before a consequential action (revoke a key, remove a member). A native modal `<dialog>`:
 * focus moves into it (to Cancel, the safe choice), stays there, Escape cancels, and focus returns
 * to what opened it. Controlled: the page decides `open` and does the work in `onConfirm`.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId} className={styles.title}>
        {props.title}
      </h2>
      <div id={bodyId} className={styles.body}>
        {props.children}
      </div>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={props.onCancel} autoFocus disabled={props.busy}>
          {props.cancelLabel ?? 'Cancelar'}
        </Button>
        <Button
          variant={props.tone === 'primary' ? 'primary' : 'danger'}
          onClick={props.onConfirm}
          busy={props.busy}
        >
          {props.confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
