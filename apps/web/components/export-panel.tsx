'use client';
/**
 * "Exportar" (issue 27): CSV or Excel of the page's list for a month or for the list's current
 * filter. A small export comes back ready and is downloaded at once; a large one is built by the
 * worker while this panel shows its progress ("Preparando… 40 %", polled every second), then
 * downloaded. The file stays available 7 days from the link shown.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { Banner, Button, Select, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { useFormErrors } from './use-form-errors.ts';
import styles from './export-panel.module.css';

/** A form value as text (a file input would give a File: never here). */
const textOf = (value: FormDataEntryValue | null, fallback: string): string =>
  typeof value === 'string' ? value : fallback;

type TStarted = { exportId: string; downloadUrl: string };

/** The current month in Dominican Republic time (UTC-4), `YYYY-MM`. */
function currentDominicanMonth(): string {
  return new Date(Date.now() - 4 * 3_600_000).toISOString().slice(0, 7);
}

export function ExportPanel(props: {
  kind: 'issued' | 'received' | 'audit';
  environment?: TEnvironment;
  /** The list's current filter as its procedure takes it (`{ query, search }`), or null without one. */
  currentFilter?: Record<string, unknown> | null;
  /** The audit log's actions to choose from (value, Spanish label). */
  actions?: { value: string; label: string }[];
}) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [started, setStarted] = useState<TStarted | null>(null);
  const downloaded = useRef<string | null>(null);
  const issued = useMutation(trpc.exports.issued.mutationOptions());
  const received = useMutation(trpc.exports.received.mutationOptions());
  const audit = useMutation(trpc.exports.auditLog.mutationOptions());
  const pending = issued.isPending || received.isPending || audit.isPending;
  const progress = useQuery(
    trpc.exports.get.queryOptions(started === null ? skipToken : { exportId: started.exportId }, {
      refetchInterval: (query) => {
        const status = query.state.data?.status;
        return status === 'ready' || status === 'failed' ? false : 1000;
      },
    }),
  );
  const view = progress.data;

  // A ready export is downloaded once (the link stays for another copy).
  useEffect(() => {
    if (view?.status === 'ready' && downloaded.current !== view.exportId) {
      downloaded.current = view.exportId;
      window.location.assign(view.downloadUrl);
    }
  }, [view?.status, view?.exportId, view?.downloadUrl]);

  const hasFilter = props.currentFilter !== undefined && props.currentFilter !== null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scope = textOf(form.get('scope'), 'month');
    const format = textOf(form.get('format'), 'csv') === 'xlsx' ? 'xlsx' : 'csv';
    const month = textOf(form.get('month'), '').trim();
    if (
      (scope === 'month' || props.kind === 'audit') &&
      scope !== 'all' &&
      !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)
    ) {
      errors.show({ month: 'Elija un mes válido (por ejemplo 2026-10).' });
      return;
    }
    errors.clear();
    const byMonth = scope === 'month' ? { month } : {};
    try {
      let answer: TStarted;
      if (props.kind === 'issued')
        answer = await issued.mutateAsync({
          environment: props.environment ?? 'TesteCF',
          format,
          ...(scope === 'filter' ? (props.currentFilter ?? {}) : byMonth),
        });
      else if (props.kind === 'received')
        answer = await received.mutateAsync({
          environment: props.environment ?? 'TesteCF',
          format,
          ...(scope === 'filter' ? (props.currentFilter ?? {}) : byMonth),
        });
      else {
        const action = textOf(form.get('action'), '');
        answer = await audit.mutateAsync({ format, ...byMonth, ...(action === '' ? {} : { action }) });
      }
      downloaded.current = null;
      setStarted(answer);
    } catch (error) {
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Exportar" className={styles.form}>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <fieldset className={styles.group}>
        <legend>Qué exportar</legend>
        <label className={styles.choice}>
          <input type="radio" name="scope" value="month" defaultChecked /> Un mes (hora de República
          Dominicana)
        </label>
        {props.kind === 'audit' ? (
          <label className={styles.choice}>
            <input type="radio" name="scope" value="all" /> Todo el registro
          </label>
        ) : (
          <label className={styles.choice}>
            <input type="radio" name="scope" value="filter" disabled={!hasFilter} />{' '}
            {hasFilter
              ? 'Los filtros actuales de la lista'
              : 'Los filtros actuales de la lista (no hay filtros)'}
          </label>
        )}
      </fieldset>
      <TextField
        label="Mes"
        name="month"
        type="month"
        defaultValue={currentDominicanMonth()}
        hint={
          props.kind === 'received'
            ? 'Mes de recepción, como las fechas de la lista.'
            : props.kind === 'issued'
              ? 'Mes de la fecha de emisión.'
              : undefined
        }
        error={errors.fieldErrors['month']}
      />
      {props.kind === 'audit' && props.actions ? (
        <Select
          label="Acción"
          name="action"
          options={[{ value: '', label: 'Todas las acciones' }, ...props.actions]}
          error={errors.fieldErrors['action']}
        />
      ) : null}
      <fieldset className={styles.group}>
        <legend>Formato</legend>
        <label className={styles.choice}>
          <input type="radio" name="format" value="csv" defaultChecked /> CSV (Excel, Hojas de cálculo)
        </label>
        <label className={styles.choice}>
          <input type="radio" name="format" value="xlsx" /> Excel (.xlsx)
        </label>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? 'Exportando…' : 'Exportar'}
      </Button>
      {started !== null && view !== undefined ? (
        <div className={styles.status} aria-live="polite">
          {view.status === 'ready' ? (
            <p>
              Listo: <a href={view.downloadUrl}>Descargar {view.fileName}</a> (disponible 7 días).
            </p>
          ) : view.status === 'failed' ? (
            <Banner tone="danger">No se pudo preparar la exportación. Inténtelo de nuevo.</Banner>
          ) : (
            <>
              <p>Preparando… {view.percent} %</p>
              <progress max={100} value={view.percent} aria-label="Progreso de la exportación" />
            </>
          )}
        </div>
      ) : null}
    </form>
  );
}
