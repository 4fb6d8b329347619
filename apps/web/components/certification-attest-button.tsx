'use client';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog } from '@ecf/ui';
import { ATTESTATION_NOTES_MAX_LENGTH, type TAttestableStep } from '../lib/certification-schemas.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import styles from './certification.module.css';

/**
 * Records that a person did a step at the tax authority's portal (with optional notes). Steps are
 * recorded in order: the service refuses an early one and names the steps still missing, which are
 * shown here with their titles.
 */
export function CertificationAttestButton(props: {
  step: TAttestableStep;
  number: number;
  title: string;
  /** Titles of every step, to name the missing ones of a refusal. */
  stepTitles: Record<string, string>;
  prominent?: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const notesId = useId();
  const [open, setOpen] = useState(false);
  const [notes, setNotes] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const attest = useMutation(trpc.certification.attest.mutationOptions());

  async function confirm() {
    setRefusal(null);
    try {
      await attest.mutateAsync({ environment: 'CerteCF', step: props.step, notes: notes.trim() });
      setOpen(false);
      setNotes('');
      router.refresh();
    } catch (error) {
      setOpen(false);
      const failure = failureOf(error);
      const missing = failure.details?.['missingSteps'];
      const names = Array.isArray(missing)
        ? missing.map((step) => props.stepTitles[String(step)] ?? String(step))
        : [];
      setRefusal(
        failure.appCode === 'CERTIFICATION_PREREQUISITES_MISSING' && names.length > 0
          ? `No se marcó "${props.title}": antes hay que completar ${names.join(', ')}.`
          : (failure.fieldErrors['notes'] ?? formMessageOf(failure)),
      );
    }
  }

  return (
    <>
      <div className={styles.actions}>
        <Button
          variant={props.prominent ? 'primary' : 'secondary'}
          size={props.prominent ? 'normal' : 'small'}
          busy={attest.isPending}
          onClick={() => setOpen(true)}
        >
          Marcar paso {props.number} como hecho
        </Button>
      </div>
      {refusal ? <Banner tone="danger">{refusal}</Banner> : null}
      <ConfirmDialog
        open={open}
        title={`¿Marcar "${props.title}" como hecho?`}
        confirmLabel="Marcar como hecho"
        tone="primary"
        busy={attest.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <p>Queda registrado quién lo marcó y cuándo; no se puede borrar.</p>
        <label htmlFor={notesId} className={styles.label}>
          Notas (opcional)
        </label>
        <textarea
          id={notesId}
          name="notes"
          className={styles.textarea}
          value={notes}
          maxLength={ATTESTATION_NOTES_MAX_LENGTH}
          onChange={(event) => setNotes(event.target.value)}
        />
      </ConfirmDialog>
    </>
  );
}
