'use client';
import { useRouter } from 'next/navigation';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, Table, TechnicalDetails, TextField } from '@ecf/ui';
import { validationMessageOf } from '../lib/catalogue.ts';
import { PART_LABELS, WORKBOOK_LIMIT_TEXT, type TCertificationPart } from '../lib/certification-schemas.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { ZPrevalidateOutput } from '../server/routers/certification/certification.schema.ts';
import type { z } from 'zod';
import { ecfTypeLabel } from './document-labels.ts';
import { problemsOf, SetProblemsTable, type TSetProblem } from './certification-problems.tsx';
import { readWorkbookFile, type TWorkbookFile } from './workbook-file.ts';
import styles from './certification.module.css';

type TPrevalidation = z.infer<typeof ZPrevalidateOutput>;
type TSource = 'workbook' | 'model';

/**
 * A set for a run of `part`: the tax authority's workbook chosen here (read in the browser, sent as
 * base64) or, for the simulation, its model. Prevalidate first (every row read and validated as the
 * run would, nothing stored; each problem located by sheet, row and column), then start the run,
 * whose page follows it row by row.
 */
export function CertificationSetForm(props: {
  part: TCertificationPart;
  /** The simulation may send the tax authority's model instead of a workbook. */
  allowModel: boolean;
  /** Where a run's page is: `${runPath}/${runId}`. */
  runPath: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const formId = useId();
  const [source, setSource] = useState<TSource>(props.allowModel ? 'model' : 'workbook');
  const [workbook, setWorkbook] = useState<TWorkbookFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [checked, setChecked] = useState<TPrevalidation | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [problems, setProblems] = useState<{ problems: TSetProblem[]; total: number }>({
    problems: [],
    total: 0,
  });
  const prevalidate = useMutation(trpc.certification.prevalidate.mutationOptions());
  const start = useMutation(trpc.certification.startRun.mutationOptions());

  function reset() {
    setChecked(null);
    setMessage(null);
    setProblems({ problems: [], total: 0 });
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    reset();
    setWorkbook(null);
    setFileError(null);
    const file = event.target.files?.[0];
    if (file === undefined) return;
    setReading(true);
    try {
      const read = await readWorkbookFile(file);
      if ('error' in read) setFileError(read.error);
      else setWorkbook(read.file);
    } finally {
      setReading(false);
    }
  }

  function inputOf() {
    if (source === 'model')
      return { environment: 'CerteCF' as const, part: props.part, taxauthModel: true as const };
    if (workbook === null) {
      setFileError(fileError ?? 'Elija el libro de Excel (.xlsx) que descargó del portal de la DGII.');
      return null;
    }
    return { environment: 'CerteCF' as const, part: props.part, workbookBase64: workbook.base64 };
  }

  function showFailure(error: unknown) {
    const failure = failureOf(error);
    setMessage(failure.fieldErrors['workbookBase64'] ?? formMessageOf(failure));
    setProblems(problemsOf(failure.details));
  }

  async function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    reset();
    const input = inputOf();
    if (input === null) return;
    try {
      setChecked(await prevalidate.mutateAsync(input));
    } catch (error) {
      showFailure(error);
    }
  }

  async function run() {
    const input = inputOf();
    if (input === null) return;
    setMessage(null);
    try {
      const { run: started } = await start.mutateAsync(input);
      router.push(`${props.runPath}/${started.runId}`);
    } catch (error) {
      showFailure(error);
    }
  }

  const usedUp = checked !== null && checked.alreadyUsedEncfs.length > 0;
  return (
    <form
      onSubmit={(event) => void check(event)}
      noValidate
      aria-label={`Set de ${PART_LABELS[props.part]?.toLowerCase() ?? props.part}`}
    >
      {props.allowModel ? (
        <fieldset className={styles.fieldset}>
          <legend>Origen del set</legend>
          <label className={styles.choice}>
            <input
              type="radio"
              name={`${formId}-source`}
              value="model"
              checked={source === 'model'}
              onChange={() => {
                setSource('model');
                reset();
              }}
            />
            Modelo de la DGII (el set de pruebas con e-NCF nuevos y fechas de hoy)
          </label>
          <label className={styles.choice}>
            <input
              type="radio"
              name={`${formId}-source`}
              value="workbook"
              checked={source === 'workbook'}
              onChange={() => {
                setSource('workbook');
                reset();
              }}
            />
            Mi propio libro de Excel
          </label>
        </fieldset>
      ) : null}
      {source === 'workbook' ? (
        <TextField
          label={
            props.part === 'data'
              ? 'Set de pruebas e-CF de la DGII (.xlsx)'
              : 'Libro de la simulación (.xlsx, mismas hojas ECF y RFCE)'
          }
          name="workbook"
          type="file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => void choose(event)}
          hint={`Hojas ECF y RFCE, tal como la DGII lo generó para su RNC. ${WORKBOOK_LIMIT_TEXT} Se lee en su navegador y se envía al prevalidar.`}
          error={fileError}
        />
      ) : null}
      {message ? <Banner tone="danger">{message}</Banner> : null}
      {problems.problems.length > 0 ? <SetProblemsTable {...problems} /> : null}
      {checked ? (
        <>
          <Banner tone={usedUp ? 'warning' : 'success'} title="Prevalidación correcta">
            <p>
              {checked.rows.ecf} filas ECF y {checked.rows.rfce} RFCE del RNC {checked.issuerRnc} para{' '}
              {PART_LABELS[checked.part]?.toLowerCase() ?? checked.part}:{' '}
              {Object.entries(checked.types)
                .map(([type, count]) => `E${type} × ${count}`)
                .join(', ')}
              . No se guardó ni se envió nada.
            </p>
            {usedUp ? (
              <p>
                {checked.alreadyUsedEncfs.length} e-NCF de este set ya se enviaron (
                {checked.alreadyUsedEncfs.slice(0, 5).join(', ')}
                {checked.alreadyUsedEncfs.length > 5 ? '…' : ''}): un e-NCF enviado queda usado. Descargue un
                set nuevo en el portal de la DGII.
              </p>
            ) : null}
          </Banner>
          <Table
            caption="Documentos en orden de envío"
            rows={checked.documents}
            rowKey={(document) => String(document.position)}
            columns={[
              { header: 'Orden', numeric: true, rowHeader: true, cell: (document) => document.position },
              { header: 'Fila', numeric: true, cell: (document) => document.sheetRow ?? '—' },
              { header: 'CasoPrueba', cell: (document) => <code>{document.caseRef ?? '—'}</code> },
              { header: 'Tipo', nowrap: true, cell: (document) => ecfTypeLabel(document.type) },
              { header: 'e-NCF', nowrap: true, cell: (document) => <code>{document.encf}</code> },
              {
                header: 'Después de',
                cell: (document) => (document.dependsOn ? <code>{document.dependsOn}</code> : '—'),
              },
              {
                header: 'Advertencias',
                cell: (document) =>
                  document.warnings.length === 0 ? (
                    '—'
                  ) : (
                    <ul className={styles.messages}>
                      {document.warnings.map((warning, index) => (
                        <li key={index}>
                          <TechnicalDetails technical={`${warning.code}: ${warning.message}`}>
                            {validationMessageOf(warning.code)}
                          </TechnicalDetails>
                        </li>
                      ))}
                    </ul>
                  ),
              },
            ]}
          />
        </>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" variant="secondary" busy={prevalidate.isPending || reading}>
          Prevalidar
        </Button>
        <Button
          type="button"
          disabled={checked === null || usedUp}
          busy={start.isPending}
          onClick={() => void run()}
        >
          Iniciar corrida
        </Button>
      </div>
    </form>
  );
}
