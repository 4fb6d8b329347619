'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { Banner, Button, StatusBadge, Table, TextField } from '@ecf/ui';
import {
  ACTIVE_RUN_STATES,
  APPROVAL_DECISION_LABELS,
  ITEM_STATE_LABELS,
  ITEM_STATE_TONES,
  RUN_STATE_LABELS,
  RUN_STATE_TONES,
  WORKBOOK_LIMIT_TEXT,
} from '../lib/certification-schemas.ts';
import { formatDateTime, formatShortDateTime } from '../lib/format.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { ZApprovalsView } from '../server/routers/certification/certification.schema.ts';
import { problemsOf, SetProblemsTable, type TSetProblem } from './certification-problems.tsx';
import { readWorkbookFile, type TWorkbookFile } from './workbook-file.ts';
import styles from './certification.module.css';

type TApprovals = z.infer<typeof ZApprovalsView>;

/**
 * The commercial approval tests (`ACEECF_Generadas`): the workbook the tax authority generated for
 * this account as buyer, sent row by row by the worker (each ACECF signed and sent, the first
 * rejection stops the send), watched every 2 seconds while it runs.
 */
export function CertificationApprovals(props: {
  initial: TApprovals | null;
  canManage: boolean;
  /** The data tests were accepted: the send is possible. */
  ready: boolean;
  /** The tax authority accepted the commercial approvals (step 3 done). */
  accepted: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [workbook, setWorkbook] = useState<TWorkbookFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [problems, setProblems] = useState<{ problems: TSetProblem[]; total: number }>({
    problems: [],
    total: 0,
  });
  const send = useMutation(trpc.certification.sendApprovals.mutationOptions());
  const approvals = useQuery(
    trpc.certification.approvals.queryOptions(
      { environment: 'CerteCF' },
      {
        initialData: { commercialApprovals: props.initial },
        refetchInterval: (query) =>
          ACTIVE_RUN_STATES.includes(query.state.data?.commercialApprovals?.state ?? '') ? 2000 : false,
      },
    ),
  );
  const current = approvals.data?.commercialApprovals ?? null;
  // When a send ends, the steps above change (step 3): the page is rendered again.
  const previousState = useRef(current?.state);
  useEffect(() => {
    const state = current?.state;
    if (
      previousState.current !== undefined &&
      ACTIVE_RUN_STATES.includes(previousState.current) &&
      state !== undefined &&
      !ACTIVE_RUN_STATES.includes(state)
    )
      router.refresh();
    previousState.current = state;
  }, [current?.state, router]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    setProblems({ problems: [], total: 0 });
    if (workbook === null) {
      setFileError(fileError ?? 'Elija el libro de aprobaciones comerciales (.xlsx).');
      return;
    }
    try {
      await send.mutateAsync({ environment: 'CerteCF', workbookBase64: workbook.base64 });
      await approvals.refetch();
    } catch (error) {
      const failure = failureOf(error);
      setMessage(failure.fieldErrors['workbookBase64'] ?? formMessageOf(failure));
      setProblems(problemsOf(failure.details));
    }
  }

  const running = current !== null && ACTIVE_RUN_STATES.includes(current.state);
  return (
    <>
      {props.accepted ? (
        <Banner tone="success">La DGII aceptó las aprobaciones comerciales.</Banner>
      ) : props.canManage && props.ready ? (
        <form
          onSubmit={(event) => void submit(event)}
          noValidate
          aria-label="Enviar aprobaciones comerciales"
        >
          <TextField
            label="Set de aprobaciones comerciales de la DGII (.xlsx, hoja ACEECF_Generadas)"
            name="approvalsWorkbook"
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(event) => {
              setWorkbook(null);
              setFileError(null);
              const file = event.target.files?.[0];
              if (file === undefined) return;
              setReading(true);
              void readWorkbookFile(file)
                .then((read) => ('error' in read ? setFileError(read.error) : setWorkbook(read.file)))
                .finally(() => setReading(false));
            }}
            hint={`Cada fila se firma como ACECF y se envía en orden. ${WORKBOOK_LIMIT_TEXT}`}
            error={fileError}
          />
          {message ? <Banner tone="danger">{message}</Banner> : null}
          {problems.problems.length > 0 ? <SetProblemsTable {...problems} /> : null}
          <div className={styles.actions}>
            <Button type="submit" busy={send.isPending || reading} disabled={running}>
              Enviar aprobaciones comerciales
            </Button>
          </div>
        </form>
      ) : !props.ready ? (
        <p className={styles.muted}>Se envían después de que la DGII acepte las pruebas de datos (paso 2).</p>
      ) : null}
      {current === null ? (
        <p className={styles.muted}>Todavía no se ha enviado ningún set de aprobaciones comerciales.</p>
      ) : (
        <>
          <p aria-live="polite" data-testid="approvals-state" data-state={current.state}>
            Envío del {formatDateTime(current.createdAt)}:{' '}
            <StatusBadge tone={RUN_STATE_TONES[current.state] ?? 'neutral'}>
              {RUN_STATE_LABELS[current.state] ?? current.state}
            </StatusBadge>{' '}
            {current.totals.accepted} de {current.totals.approvals} aceptadas por la DGII
            {running ? ' (actualizando cada 2 segundos…)' : '.'}
          </p>
          {current.failure ? <Banner tone="danger">{current.failure}</Banner> : null}
          <Table
            caption="Aprobaciones comerciales, fila por fila"
            rows={current.items}
            rowKey={(item) => String(item.position)}
            columns={[
              { header: 'Fila', numeric: true, rowHeader: true, cell: (item) => item.row },
              { header: 'RNC emisor', cell: (item) => <code>{item.issuerRnc}</code> },
              { header: 'e-NCF', nowrap: true, cell: (item) => <code>{item.encf}</code> },
              {
                header: 'Decisión',
                cell: (item) => APPROVAL_DECISION_LABELS[item.estado ?? ''] ?? item.estado ?? '—',
              },
              {
                header: 'Estado',
                cell: (item) => (
                  <StatusBadge tone={ITEM_STATE_TONES[item.state] ?? 'neutral'}>
                    {ITEM_STATE_LABELS[item.state] ?? item.state}
                  </StatusBadge>
                ),
              },
              {
                header: 'Enviada',
                nowrap: true,
                cell: (item) => (item.sentAt ? formatShortDateTime(item.sentAt) : '—'),
              },
              { header: 'Respuesta de la DGII', cell: (item) => item.answer ?? '—' },
            ]}
          />
        </>
      )}
    </>
  );
}
