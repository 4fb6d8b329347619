/** @jsxRuntime automatic */
'use client';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button.tsx';
import styles from './confirm-dialog.module.css';

/** What the dialog's effect needs of the page (a structural type: the unit tests pass fakes). */
type TFocusable = { focus(): void; isConnected?: boolean };
type TDialogElement = {
  open: boolean;
  showModal(): void;
  close(): void;
  querySelector(selector: string): unknown;
};

/** The Cancel button, found by this attribute (the body may hold its own fields and buttons first). */
const CANCEL_ATTRIBUTE = 'data-confirm-cancel';

/**
 * Opens or closes the native dialog as `open` says. Opening remembers what had the focus (the
 * trigger), shows the dialog modally and moves the focus to Cancel, the safe choice (React renders
 * `autoFocus` as a focus call at mount, when the dialog is still closed, so it is not enough).
 * Closing gives the focus back to the trigger when it is still on the page (a revoked row's button
 * may be gone; the browser then leaves the focus on the body).
 */
export function syncConfirmDialog(input: {
  dialog: TDialogElement;
  open: boolean;
  activeElement: unknown;
  trigger: { current: TFocusable | null };
}): void {
  const { dialog, trigger } = input;
  if (input.open && !dialog.open) {
    trigger.current = isFocusable(input.activeElement) ? input.activeElement : null;
    dialog.showModal();
    const cancel = dialog.querySelector(`[${CANCEL_ATTRIBUTE}]`);
    if (isFocusable(cancel)) cancel.focus();
  } else if (!input.open && dialog.open) {
    dialog.close();
    const previous = trigger.current;
    trigger.current = null;
    if (previous !== null && previous.isConnected !== false) previous.focus();
  }
}

function isFocusable(value: unknown): value is TFocusable {
  return (
    typeof value === 'object' && value !== null && typeof (value as { focus?: unknown }).focus === 'function'
  );
}

/**
 * The portal's one confirmation for a destructive or high-impact action (revoke a key, remove a
 * member, replace the signing certificate...). A native modal `<dialog>` named by its title and
 * described by its body, which says what will change: focus moves to "Cancelar" (the safe choice)
 * and stays inside, Escape cancels, and focus returns to the button that opened it. The confirm
 * button names the action and is styled as dangerous unless `tone="primary"` (a weighty but
 * reversible action). Controlled: the page decides `open` and does the work in `onConfirm`; while
 * `busy`, neither Cancel nor Escape interrupts it.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: ReactNode;
  /** What will change if confirmed. */
  children: ReactNode;
  /** The action, as a verb: "Revocar clave", "Reemplazar certificado". */
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  /** Wider, for a body that compares two things side by side. */
  wide?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<TFocusable | null>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    syncConfirmDialog({ dialog: element, open: props.open, activeElement: document.activeElement, trigger });
  }, [props.open]);
  return (
    <dialog
      ref={dialog}
      className={props.wide ? `${styles.dialog} ${styles.wide}` : styles.dialog}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape: the page closes the dialog through `open`, never the browser on its own.
        event.preventDefault();
        if (!props.busy) props.onCancel();
      }}
      onClose={() => {
        // Closed by the browser anyway (a second Escape may not be cancellable): keep `open` in step.
        if (props.open) props.onCancel();
      }}
    >
      <h2 id={titleId} className={styles.title}>
        {props.title}
      </h2>
      <div id={bodyId} className={styles.body}>
        {props.children}
      </div>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          onClick={props.onCancel}
          autoFocus
          disabled={props.busy}
          {...{ [CANCEL_ATTRIBUTE]: '' }}
        >
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
