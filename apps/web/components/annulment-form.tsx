'use client';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog, Select, Table, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import {
  ANNULMENT_STATUS_LABELS,
  CONFLICT_REASON_LABELS,
  ECF_TYPE_LABELS,
  ECF_TYPE_OPTIONS,
  PORTAL_ANNULMENT_MAX_RANGES,
} from '../lib/annulment-schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZPrevalidateAnnulmentInput } from '../server/routers/annulments/annulment.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './annulments.module.css';

type TRangeRow = { key: number; type: string; from: string; to: string };
type TConflict = { encf: string; documentId: string; status: string; reason: string };

/** `ranges[2].from` (services) → `ranges.2.from` (the form's field keys). */
const fieldKeyOf = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

function conflictsOf(details: Record<string, unknown> | null): TConflict[] {
  const conflicts = details?.['conflicts'];
  return Array.isArray(conflicts) ? (conflicts as TConflict[]) : [];
}

let nextKey = 1;
const emptyRow = (): TRangeRow => ({ key: nextKey++, type: '31', from: '', to: '' });

/**
 * The annulment of eNCF ranges: prevalidate (the ANECF is built and checked, the documents of the
 * ranges listed: those that would be cancelled, or the conflicts that block it, one per document),
 * then send to the tax authority with an idempotency key generated once per request (a retry or a
 * double click replays the first answer instead of annulling twice).
 */
export function AnnulmentForm(props: { environment: TEnvironment }) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [rows, setRows] = useState<TRangeRow[]>([emptyRow()]);
  const [reason, setReason] = useState('');
  const [conflicts, setConflicts] = useState<TConflict[]>([]);
  const [checked, setChecked] = useState<{ count: number; cancellable: string[] } | null>(null);
  const [idempotencyKey, setIdempotencyKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const prevalidate = useMutation(trpc.annulments.prevalidate.mutationOptions());
  const send = useMutation(trpc.annulments.send.mutationOptions());

  function changed(next: TRangeRow[]) {
    setRows(next);
    // Another request: checked again, and sent with a key of its own.
    setChecked(null);
    setIdempotencyKey(null);
    send.reset();
  }
  const update = (key: number, field: 'type' | 'from' | 'to', value: string) =>
    changed(rows.map((row) => (row.key === key ? { ...row, [field]: value } : row)));

  function inputOf() {
    return errors.check(ZPrevalidateAnnulmentInput, {
      environment: props.environment,
      ranges: rows.map(({ type, from, to }) => ({ type, from, to })),
      reason,
    });
  }

  function showFailure(error: unknown) {
    const failure = errors.fail(error);
    setConflicts(conflictsOf(failure.details));
    const issues = failure.details?.['errors'];
    if (Array.isArray(issues) && issues.length > 0) {
      const fields: Record<string, string> = {};
      for (const issue of issues as Array<{ path?: string; message?: string }>)
        if (typeof issue.path === 'string')
          fields[fieldKeyOf(issue.path)] ??= issue.message ?? 'Revise este campo.';
      errors.show(fields);
    }
  }

  async function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setConflicts([]);
    setChecked(null);
    const input = inputOf();
    if (input === null) return;
    try {
      const answer = await prevalidate.mutateAsync(input);
      setChecked({ count: answer.count, cancellable: answer.cancellable.map((document) => document.encf) });
    } catch (error) {
      showFailure(error);
    }
  }

  async function confirmSend() {
    setConfirming(false);
    const input = inputOf();
    if (input === null) return;
    const key = idempotencyKey ?? crypto.randomUUID();
    setIdempotencyKey(key);
    try {
      await send.mutateAsync({ ...input, idempotencyKey: key });
    } catch (error) {
      showFailure(error);
    }
  }

  const result = send.data?.annulment;
  return (
    <>
      <form onSubmit={(event) => void check(event)} noValidate aria-label="Anular rangos de e-NCF">
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        {rows.map((row, index) => (
          <div key={row.key} className={styles.row}>
            <Select
              label={`Tipo (rango ${index + 1})`}
              name={`ranges.${index}.type`}
              value={row.type}
              onChange={(event) => update(row.key, 'type', event.target.value)}
              options={ECF_TYPE_OPTIONS.map((type) => ({ value: type, label: ECF_TYPE_LABELS[type] }))}
              error={errors.fieldErrors[`ranges.${index}.type`]}
            />
            <TextField
              label={`Desde (rango ${index + 1})`}
              name={`ranges.${index}.from`}
              value={row.from}
              maxLength={13}
              autoComplete="off"
              onChange={(event) => update(row.key, 'from', event.target.value)}
              error={errors.fieldErrors[`ranges.${index}.from`] ?? errors.fieldErrors[`ranges.${index}`]}
            />
            <TextField
              label={`Hasta (rango ${index + 1})`}
              name={`ranges.${index}.to`}
              value={row.to}
              maxLength={13}
              autoComplete="off"
              onChange={(event) => update(row.key, 'to', event.target.value)}
              error={errors.fieldErrors[`ranges.${index}.to`]}
            />
            <Button
              type="button"
              variant="secondary"
              size="small"
              disabled={rows.length === 1}
              onClick={() => changed(rows.filter((other) => other.key !== row.key))}
            >
              Quitar rango {index + 1}
            </Button>
          </div>
        ))}
        <div className={styles.actions}>
          <Button
            type="button"
            variant="secondary"
            disabled={rows.length >= PORTAL_ANNULMENT_MAX_RANGES}
            onClick={() => changed([...rows, emptyRow()])}
          >
            Agregar rango
          </Button>
        </div>
        <TextField
          label="Motivo (opcional)"
          name="reason"
          value={reason}
          maxLength={500}
          onChange={(event) => {
            setReason(event.target.value);
            setChecked(null);
            setIdempotencyKey(null);
          }}
          hint="Queda registrado con la anulación; la DGII no lo recibe."
          error={errors.fieldErrors['reason']}
        />
        <div className={styles.actions}>
          <Button type="submit" variant="secondary" busy={prevalidate.isPending}>
            Prevalidar
          </Button>
          <Button
            type="button"
            disabled={checked === null || result !== undefined}
            busy={send.isPending}
            onClick={() => setConfirming(true)}
          >
            Enviar a la DGII
          </Button>
        </div>
      </form>
      {checked ? (
        <Banner tone="info" title="Prevalidación correcta">
          <p>
            Se anularían {checked.count.toLocaleString('es-DO')} e-NCF.{' '}
            {checked.cancellable.length > 0
              ? `Estos e-CF firmados que nunca salieron quedarían cancelados: ${checked.cancellable.join(', ')}.`
              : 'Ningún e-CF emitido queda cancelado.'}
          </p>
        </Banner>
      ) : null}
      {conflicts.length > 0 ? (
        <Table
          caption="Documentos que impiden la anulación"
          rows={conflicts}
          rowKey={(conflict) => conflict.documentId}
          columns={[
            {
              header: 'e-NCF',
              rowHeader: true,
              nowrap: true,
              cell: (conflict) => (
                <Link href={`/${props.environment}/documents/${conflict.documentId}`}>{conflict.encf}</Link>
              ),
            },
            { header: 'Estado', cell: (conflict) => conflict.status },
            {
              header: 'Motivo',
              cell: (conflict) => CONFLICT_REASON_LABELS[conflict.reason] ?? conflict.reason,
            },
          ]}
        />
      ) : null}
      {result ? (
        <Banner
          tone={
            result.status === 'accepted' ? 'success' : result.status === 'rejected' ? 'danger' : 'warning'
          }
          title={`Anulación ${ANNULMENT_STATUS_LABELS[result.status] ?? result.status}`}
        >
          {result.taxauth && result.taxauth.mensajes.length > 0 ? (
            <ul className={styles.list}>
              {result.taxauth.mensajes.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          ) : null}
          <p>
            <Link href={`/${props.environment}/annulments/${result.id}`}>Ver el estado de la anulación</Link>
          </p>
        </Banner>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="¿Enviar la anulación a la DGII?"
        confirmLabel="Enviar"
        tone="danger"
        onConfirm={() => void confirmSend()}
        onCancel={() => setConfirming(false)}
      >
        {checked ? (
          <p>
            Se anularán {checked.count.toLocaleString('es-DO')} e-NCF
            {checked.cancellable.length > 0
              ? ` y quedarán cancelados estos e-CF firmados que nunca salieron: ${checked.cancellable.join(', ')}.`
              : '; ningún e-CF emitido queda cancelado.'}
          </p>
        ) : null}
        <p>Los e-NCF anulados no se pueden volver a usar. Esta acción no se puede deshacer.</p>
      </ConfirmDialog>
    </>
  );
}
