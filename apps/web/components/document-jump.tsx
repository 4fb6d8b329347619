'use client';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@ecf/ui';
import { useTRPCClient } from '../lib/trpc/client.tsx';
import type { TEnvironment } from '../lib/environments.ts';
import { ZLocateDocumentInput } from '../server/routers/documents/locate-document.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './portal-shell.module.css';

/** Said when no document of the account has that e-NCF or TrackId. */
export const DOCUMENT_JUMP_NOT_FOUND =
  'No encontramos ningún comprobante con ese e-NCF o TrackId en esta cuenta.';

/**
 * The header's "Ir a e-NCF o TrackId" (issue 27): an exact e-NCF or TrackId opens that document
 * wherever it is (issued or received, any environment), the current environment's first.
 */
export function DocumentJump(props: { environment: TEnvironment }) {
  const client = useTRPCClient();
  const errors = useFormErrors();
  const id = useId();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = errors.check(ZLocateDocumentInput, {
      reference: form.get('reference'),
      environment: props.environment,
    });
    if (input === null) return;
    setBusy(true);
    try {
      const { matches } = await client.documents.locate.query(input);
      const first = matches[0];
      if (first === undefined) errors.show({ reference: DOCUMENT_JUMP_NOT_FOUND });
      // A full navigation, as the account switcher does: the shell (environment switcher, the
      // navigation's current entry) is rendered by the server for the new path.
      else window.location.assign(first.href);
    } catch (error) {
      errors.fail(error);
    } finally {
      setBusy(false);
    }
  }

  const error = errors.fieldErrors.reference ?? errors.message ?? null;
  // Compact like the account switcher beside it (not a TextField): the header stays one line wide.
  return (
    <form
      role="search"
      aria-label="Ir a un comprobante"
      className={styles.jump}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <div>
        <label htmlFor={id} className={styles.switcherLabel}>
          Ir a e-NCF o TrackId
        </label>
        <input
          id={id}
          name="reference"
          autoComplete="off"
          maxLength={100}
          className={styles.jumpInput}
          aria-invalid={error === null ? undefined : true}
          aria-describedby={error === null ? undefined : `${id}-error`}
        />
        {error === null ? null : (
          <span id={`${id}-error`} role="alert" className={styles.jumpError}>
            {error}
          </span>
        )}
      </div>
      <Button type="submit" variant="secondary" size="small" busy={busy}>
        Ir
      </Button>
    </form>
  );
}
