'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog, Select, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZReconcileAnnulmentInput } from '../server/routers/annulments/annulment.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './annulments.module.css';

/**
 * Fixes the outcome of an uncertain annulment once, with the tax authority's answer as evidence
 * (stored write-once). Nothing is resent: the outcome is what the tax authority decided.
 */
export function AnnulmentReconcileForm(props: { environment: TEnvironment; annulmentId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [pending, setPending] = useState<ReturnType<typeof ZReconcileAnnulmentInput.parse> | null>(null);
  const reconcile = useMutation(trpc.annulments.reconcile.mutationOptions());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = errors.check(ZReconcileAnnulmentInput, {
      environment: props.environment,
      annulmentId: props.annulmentId,
      outcome: form.get('outcome'),
      evidence: form.get('evidence'),
      note: form.get('note') ?? undefined,
    });
    if (input !== null) setPending(input);
  }

  async function confirm() {
    const input = pending;
    setPending(null);
    if (input === null) return;
    try {
      await reconcile.mutateAsync(input);
      router.refresh();
    } catch (error) {
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Conciliar la anulación">
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Select
        label="Lo que decidió la DGII"
        name="outcome"
        options={[
          { value: 'accepted', label: 'Aceptó la anulación' },
          { value: 'rejected', label: 'Rechazó la anulación' },
        ]}
        error={errors.fieldErrors['outcome']}
      />
      <label className={styles.label} htmlFor="annulment-evidence">
        Evidencia: la respuesta de la DGII
      </label>
      <textarea
        id="annulment-evidence"
        name="evidence"
        className={styles.textarea}
        aria-invalid={errors.fieldErrors['evidence'] ? true : undefined}
        aria-describedby={errors.fieldErrors['evidence'] ? 'annulment-evidence-error' : undefined}
      />
      {errors.fieldErrors['evidence'] ? (
        <p id="annulment-evidence-error" className={styles.error}>
          {errors.fieldErrors['evidence']}
        </p>
      ) : null}
      <TextField label="Nota (opcional)" name="note" maxLength={4000} error={errors.fieldErrors['note']} />
      <Button type="submit" busy={reconcile.isPending}>
        Conciliar
      </Button>
      <ConfirmDialog
        open={pending !== null}
        title="¿Fijar el resultado de la anulación?"
        confirmLabel="Conciliar"
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        <p>El resultado queda fijado para siempre, con la evidencia guardada.</p>
      </ConfirmDialog>
    </form>
  );
}
