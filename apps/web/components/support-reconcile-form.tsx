'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, Select, TextField } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZReconcileDeliveryInput } from '../server/routers/support/reconcile-delivery.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './support-desk.module.css';

/** Why the ARECF was refused (`details.reason` of RECEIVER_DELIVERY_EVIDENCE_INVALID), in Spanish. */
const EVIDENCE_REASONS: Record<string, string> = {
  evidence_required: 'Adjunte el ARECF firmado por el comprador.',
  evidence_not_applicable: 'El resultado «no se entregó» no lleva ARECF.',
  not_xml: 'El archivo no es un XML válido.',
  signature_invalid: 'La firma del ARECF no es válida.',
  xsd_invalid: 'El ARECF no cumple el esquema oficial (XSD).',
  issuer_mismatch: 'El ARECF es de otro emisor.',
  buyer_mismatch: 'El ARECF es de otro comprador.',
  encf_mismatch: 'El ARECF es de otro e-CF (eNCF distinto).',
  not_received: 'El ARECF dice que el comprador NO recibió el e-CF.',
};

function reasonMessageOf(reason: unknown): string {
  if (typeof reason !== 'string') return 'El ARECF no corresponde a este e-CF.';
  if (reason.startsWith('signer_')) return 'El firmante del ARECF no puede ser el comprador.';
  return EVIDENCE_REASONS[reason] ?? 'El ARECF no corresponde a este e-CF.';
}

/**
 * Reconciles an uncertain receiver delivery: the buyer's signed ARECF (an XML file read in the
 * browser and sent as text in the JSON mutation), or "never dispatched". The server checks it
 * with the API's use-case; its refusal is shown on the file field.
 */
export function SupportReconcileForm(props: { documentId: string; encf: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [outcome, setOutcome] = useState<'sent' | 'dispatch_failed'>('sent');
  const [done, setDone] = useState<string | null>(null);
  const reconcile = useMutation(trpc.support.reconcileDelivery.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const data = new FormData(event.currentTarget);
    const file = data.get('arecf');
    const arecfXml = file instanceof File && file.size > 0 ? await file.text() : '';
    const noteValue = data.get('note');
    const note = typeof noteValue === 'string' ? noteValue : '';
    const input = errors.check(ZReconcileDeliveryInput, {
      documentId: props.documentId,
      outcome,
      ...(outcome === 'sent' ? { evidence: { arecfXml } } : {}),
      ...(note === '' ? {} : { note }),
    });
    if (input === null) return;
    try {
      const result = await reconcile.mutateAsync(input);
      setDone(
        `Entrega conciliada: ${result.status === 'sent' ? 'recibida por el comprador' : 'no se entregó'}.`,
      );
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error, {
        RECEIVER_DELIVERY_NOT_UNCERTAIN: 'form',
        RECEIVER_DELIVERY_OUTCOME_CONFLICT: 'form',
      });
      if (failure.appCode === 'RECEIVER_DELIVERY_EVIDENCE_INVALID')
        errors.show({ 'evidence.arecfXml': reasonMessageOf(failure.details?.['reason']) });
    }
  }

  return (
    <form className={styles.reconcile} onSubmit={(event) => void submit(event)} noValidate>
      <Select
        label="Resultado"
        name="outcome"
        value={outcome}
        onChange={(event) =>
          setOutcome(event.target.value === 'dispatch_failed' ? 'dispatch_failed' : 'sent')
        }
        options={[
          { value: 'sent', label: 'Recibido por el comprador (con ARECF)' },
          { value: 'dispatch_failed', label: 'No se entregó' },
        ]}
        error={errors.fieldErrors['outcome']}
      />
      {outcome === 'sent' ? (
        <TextField
          label={`ARECF firmado de ${props.encf}`}
          name="arecf"
          type="file"
          accept=".xml,application/xml,text/xml"
          hint="El acuse de recibo (XML) que el comprador firmó."
          error={errors.fieldErrors['evidence.arecfXml'] ?? errors.fieldErrors['evidence']}
        />
      ) : null}
      <TextField label="Nota (opcional)" name="note" maxLength={4000} error={errors.fieldErrors['note']} />
      {errors.message === null ? null : <Banner tone="danger">{errors.message}</Banner>}
      {done === null ? null : <Banner tone="success">{done}</Banner>}
      <Button type="submit" busy={reconcile.isPending}>
        Conciliar<span className="ecf-visually-hidden"> la entrega de {props.encf}</span>
      </Button>
    </form>
  );
}
