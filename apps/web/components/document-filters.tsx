import { Button, LinkButton, Select, TextField } from '@ecf/ui';
import { DOCUMENT_STATUS_LABELS, ECF_TYPE_LABELS } from './document-labels.ts';
import styles from './document-pages.module.css';

/** The query keys of the issued list (the REST API's), as the page reads them from its URL. */
export const DOCUMENT_QUERY_KEYS = [
  'issueDateFrom',
  'issueDateTo',
  'type',
  'status',
  'limit',
  'cursor',
] as const;

/** The portal's search keys (issue 27), apart from the REST API's: the text, the amount range, the previous page. */
export const DOCUMENT_SEARCH_KEYS = ['q', 'amountMin', 'amountMax', 'before'] as const;

/**
 * The issued list's filters as a plain GET form: the filters live in the URL (shareable, back
 * button), and a new filter starts from the first page (no cursor is sent).
 */
export function DocumentFilters(props: { environment: string; values: Record<string, string> }) {
  const { values } = props;
  return (
    <form method="get" action={`/${props.environment}/documents`} aria-label="Filtrar documentos">
      <div className={styles.filters}>
        <TextField
          label="Buscar"
          name="q"
          defaultValue={values.q ?? ''}
          hint="e-NCF (o su inicio), TrackId, o RNC, cédula o nombre del comprador."
          autoComplete="off"
        />
        <TextField
          label="Monto mínimo"
          name="amountMin"
          inputMode="decimal"
          defaultValue={values.amountMin ?? ''}
        />
        <TextField
          label="Monto máximo"
          name="amountMax"
          inputMode="decimal"
          defaultValue={values.amountMax ?? ''}
        />
        <Select
          label="Estado"
          name="status"
          defaultValue={values.status ?? ''}
          options={[
            { value: '', label: 'Todos' },
            ...Object.entries(DOCUMENT_STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
        <Select
          label="Tipo"
          name="type"
          defaultValue={values.type ?? ''}
          options={[
            { value: '', label: 'Todos' },
            ...Object.entries(ECF_TYPE_LABELS).map(([value, label]) => ({
              value,
              label: `${value} ${label}`,
            })),
          ]}
        />
        <TextField
          label="Emitido desde"
          name="issueDateFrom"
          type="date"
          defaultValue={values.issueDateFrom ?? ''}
        />
        <TextField
          label="Emitido hasta"
          name="issueDateTo"
          type="date"
          defaultValue={values.issueDateTo ?? ''}
        />
        <Select
          label="Por página"
          name="limit"
          defaultValue={values.limit ?? '50'}
          options={['10', '25', '50', '100'].map((value) => ({ value, label: value }))}
        />
      </div>
      <div className={styles.actions}>
        <Button type="submit">Filtrar</Button>
        <LinkButton href={`/${props.environment}/documents`}>Quitar filtros</LinkButton>
      </div>
    </form>
  );
}
