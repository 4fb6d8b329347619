'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, Select, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import { ECF_TYPE_LABELS, ECF_TYPE_OPTIONS } from '../lib/annulment-schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZRegisterSequenceInput } from '../server/routers/sequences/sequence.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

/** Where a SEQUENCE_RANGE_INVALID of the services (`details.path`, `details.reason`) shows. */
const RANGE_MESSAGES: Record<string, string> = {
  encf_invalid: 'No es un e-NCF válido.',
  type_mismatch: 'Este e-NCF es de otro tipo.',
  series_mismatch: 'Los dos extremos deben ser de la misma serie.',
  reversed: 'El rango empieza después de terminar.',
  date_invalid: 'Fecha de vencimiento no válida.',
};

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Registers an eNCF range of one type (optional: emission works without it; rule 16 compares with it). */
export function SequenceRegisterForm(props: { environment: TEnvironment }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [registered, setRegistered] = useState<string | null>(null);
  const register = useMutation(trpc.sequences.register.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setRegistered(null);
    const input = errors.check(ZRegisterSequenceInput, {
      environment: props.environment,
      type: form.get('type'),
      from: form.get('from'),
      to: form.get('to'),
      sequenceExpirationDate: form.get('sequenceExpirationDate'),
    });
    if (input === null) return;
    try {
      const answer = await register.mutateAsync(input);
      setRegistered(`${answer.range.from} – ${answer.range.to}`);
      formElement.reset();
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error, { SEQUENCE_RANGE_OVERLAP: 'from' });
      const details = failure.details ?? {};
      if (failure.appCode === 'SEQUENCE_RANGE_OVERLAP') {
        errors.show({
          from: `Se solapa con el rango registrado ${textOf(details['from'])} – ${textOf(details['to'])}.`,
        });
      } else if (failure.appCode === 'SEQUENCE_RANGE_INVALID') {
        const path = typeof details['path'] === 'string' ? details['path'] : 'from';
        const field = path.includes('Date') ? 'sequenceExpirationDate' : path.endsWith('to') ? 'to' : 'from';
        errors.show({ [field]: RANGE_MESSAGES[String(details['reason'])] ?? 'Revise este campo.' });
      }
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Registrar un rango">
      {registered ? <Banner tone="success">Rango {registered} registrado.</Banner> : null}
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Select
        label="Tipo de e-CF"
        name="type"
        options={ECF_TYPE_OPTIONS.map((type) => ({ value: type, label: ECF_TYPE_LABELS[type] }))}
        error={errors.fieldErrors['type']}
      />
      <TextField
        label="Primer e-NCF"
        name="from"
        autoComplete="off"
        maxLength={13}
        required
        hint="Por ejemplo E310000000001."
        error={errors.fieldErrors['from']}
      />
      <TextField
        label="Último e-NCF"
        name="to"
        autoComplete="off"
        maxLength={13}
        required
        error={errors.fieldErrors['to']}
      />
      <TextField
        label="Fecha de vencimiento de la secuencia"
        name="sequenceExpirationDate"
        type="date"
        required
        hint="La que autorizó la DGII para el rango."
        error={errors.fieldErrors['sequenceExpirationDate']}
      />
      <Button type="submit" busy={register.isPending}>
        Registrar rango
      </Button>
    </form>
  );
}
