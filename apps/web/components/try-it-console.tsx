'use client';
import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Banner, Button, Panel, Select, Table, TechnicalDetails } from '@ecf/ui';
import { validationMessageOf } from '../lib/catalogue.ts';
import { exampleText, TRY_IT_EXAMPLES } from '../lib/try-it-examples.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import { DocumentTimeline } from './document-timeline.tsx';
import styles from './document-pages.module.css';

type TIssue = { path: string; code: string; message: string };
type TResult =
  | { kind: 'preflight-ok'; encf: string; warnings: TIssue[] }
  | { kind: 'refused'; action: 'preflight' | 'emit'; errors: TIssue[]; warnings: TIssue[] }
  | { kind: 'emitted'; documentId: string; encf: string; replayed: boolean; warnings: TIssue[] }
  | { kind: 'failed'; message: string };

function IssueTable(props: { caption: string; issues: readonly TIssue[] }) {
  return (
    <Table
      caption={props.caption}
      rows={props.issues}
      rowKey={(issue) => `${issue.path}|${issue.code}|${issue.message}`}
      columns={[
        { header: 'Campo', rowHeader: true, cell: (issue) => <code>{issue.path || '(documento)'}</code> },
        {
          header: 'Mensaje',
          // The catalogue's Spanish; the API's code and message (what an integration reads) behind the fold.
          cell: (issue) => (
            <TechnicalDetails technical={`${issue.code}: ${issue.message}`}>
              {validationMessageOf(issue.code)}
            </TechnicalDetails>
          ),
        },
      ]}
    />
  );
}

/** Watches an emitted document every second until a final status (the tax authority's answer). */
function EmissionStatus(props: { documentId: string }) {
  const trpc = useTRPC();
  const status = useQuery(
    trpc.tryIt.status.queryOptions(
      { documentId: props.documentId },
      { refetchInterval: (query) => (query.state.data?.isFinal === true ? false : 1000) },
    ),
  );
  if (status.data === undefined) return <p aria-live="polite">Consultando el estado…</p>;
  return (
    <>
      <p aria-live="polite" data-testid="try-it-status" data-status={status.data.status}>
        Estado: <DocumentStatusBadge status={status.data.status} />{' '}
        {status.data.isFinal ? '(estado final)' : '(actualizando cada segundo…)'}
      </p>
      <DocumentTimeline entries={status.data.timeline} />
      <p>
        <a href={`/TesteCF/documents/${props.documentId}`}>Ver el documento {status.data.encf}</a>
      </p>
    </>
  );
}

/**
 * Try it: an example (fresh eNCF each time) or pasted JSON, the preflight with each error on its
 * field path, the emission (TesteCF), and the document's status watched live until it is final.
 */
export function TryItConsole() {
  const trpc = useTRPC();
  const editorId = useId();
  const [exampleId, setExampleId] = useState(TRY_IT_EXAMPLES[0]?.id ?? 'e31');
  const [json, setJson] = useState('');
  const [result, setResult] = useState<TResult | null>(null);
  const preflight = useMutation(trpc.tryIt.preflight.mutationOptions());
  const emit = useMutation(trpc.tryIt.emit.mutationOptions());

  async function run(action: 'preflight' | 'emit') {
    if (json.trim() === '') {
      setResult({ kind: 'failed', message: 'Pegue un documento JSON o cargue un ejemplo.' });
      return;
    }
    try {
      if (action === 'preflight') {
        const answer = await preflight.mutateAsync({ json });
        setResult(
          answer.ok
            ? { kind: 'preflight-ok', encf: answer.encf, warnings: answer.warnings }
            : { kind: 'refused', action, errors: answer.errors, warnings: answer.warnings },
        );
      } else {
        const answer = await emit.mutateAsync({ json });
        setResult(
          answer.ok
            ? {
                kind: 'emitted',
                documentId: answer.documentId,
                encf: answer.encf,
                replayed: answer.outcome === 'replayed',
                warnings: answer.warnings,
              }
            : { kind: 'refused', action, errors: answer.errors, warnings: answer.warnings },
        );
      }
    } catch (error) {
      const failure = failureOf(error);
      setResult({ kind: 'failed', message: failure.fieldErrors.json ?? formMessageOf(failure) });
    }
  }

  return (
    <>
      <Panel title="Documento">
        <div className={styles.filters}>
          <Select
            label="Ejemplo"
            name="example"
            value={exampleId}
            onChange={(event) => setExampleId(event.target.value)}
            options={TRY_IT_EXAMPLES.map((example) => ({ value: example.id, label: example.label }))}
          />
          <Button
            variant="secondary"
            onClick={() => {
              setJson(exampleText(exampleId));
              setResult(null);
            }}
          >
            Cargar ejemplo
          </Button>
        </div>
        <p className={styles.muted}>
          Los marcadores {'{{RNC}}'}, {'{{RAZON_SOCIAL}}'}, {'{{NOMBRE_COMERCIAL}}'}, {'{{FECHA_EMISION}}'} y{' '}
          {'{{FECHA_LIMITE_PAGO}}'} se completan con los datos de su cuenta. Cada ejemplo cargado lleva un
          e-NCF nuevo; emitir dos veces el mismo JSON devuelve el mismo documento.
        </p>
        <label htmlFor={editorId} className={styles.label}>
          Documento JSON (contrato simplificado o JSON de la DGII)
        </label>
        <textarea
          id={editorId}
          name="json"
          className={styles.editor}
          value={json}
          spellCheck={false}
          onChange={(event) => setJson(event.target.value)}
        />
        <div className={styles.actions}>
          <Button variant="secondary" busy={preflight.isPending} onClick={() => void run('preflight')}>
            Prevalidar
          </Button>
          <Button busy={emit.isPending} onClick={() => void run('emit')}>
            Emitir en TesteCF
          </Button>
        </div>
      </Panel>
      {result === null ? null : (
        <Panel title="Resultado">
          <div role="status">
            {result.kind === 'preflight-ok' ? (
              <Banner tone="success" title="Documento válido">
                {result.encf} pasó la prevalidación: no se guardó nada y el e-NCF sigue libre.
              </Banner>
            ) : null}
            {result.kind === 'refused' ? (
              <Banner
                tone="danger"
                title={result.action === 'emit' ? 'No se emitió' : 'Documento con errores'}
              >
                {result.errors.length} error(es): corríjalos en los campos indicados. No se guardó nada.
              </Banner>
            ) : null}
            {result.kind === 'emitted' ? (
              <Banner tone="success" title={result.replayed ? 'Ya emitido' : 'Documento emitido'}>
                {result.replayed
                  ? `${result.encf} ya se había emitido con este mismo JSON: es el mismo documento.`
                  : `${result.encf} fue recibido y se está firmando y enviando a la DGII.`}
              </Banner>
            ) : null}
            {result.kind === 'failed' ? <Banner tone="danger">{result.message}</Banner> : null}
          </div>
          {result.kind === 'refused' ? (
            <IssueTable caption="Errores por campo" issues={result.errors} />
          ) : null}
          {'warnings' in result && result.warnings.length > 0 ? (
            <IssueTable caption="Advertencias" issues={result.warnings} />
          ) : null}
          {result.kind === 'emitted' ? <EmissionStatus documentId={result.documentId} /> : null}
        </Panel>
      )}
    </>
  );
}
