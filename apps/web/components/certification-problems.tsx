import { Table, TechnicalDetails } from '@ecf/ui';
import { workbookProblemOf } from '../lib/catalogue.ts';

/** One problem of a set as the services locate it (`details.errors[]` of a 422). */
export type TSetProblem = {
  sheet: string | null;
  row: number | null;
  column: string | null;
  path?: string;
  code: string;
  message: string;
};

/** The located problems of a refusal's details (empty when it has none). */
export function problemsOf(details: Record<string, unknown> | null): {
  problems: TSetProblem[];
  total: number;
} {
  const list = details?.['errors'];
  if (!Array.isArray(list)) return { problems: [], total: 0 };
  const problems = list.flatMap((item: unknown): TSetProblem[] => {
    if (item === null || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    return [
      {
        sheet: text(record['sheet']),
        row: typeof record['row'] === 'number' ? record['row'] : null,
        column: text(record['column']),
        ...(text(record['path']) === null ? {} : { path: String(record['path']) }),
        code: text(record['code']) ?? '',
        message: text(record['message']) ?? '',
      },
    ];
  });
  const count = details?.['errorCount'];
  return { problems, total: typeof count === 'number' ? count : problems.length };
}

/** The problems of a workbook, each where it is: sheet, row, column (or the e-CF path), and what is wrong in Spanish. */
export function SetProblemsTable(props: { problems: readonly TSetProblem[]; total: number }) {
  return (
    <Table
      caption={
        props.total > props.problems.length
          ? `Problemas del libro (${props.problems.length} de ${props.total})`
          : `Problemas del libro (${props.total})`
      }
      rows={props.problems}
      rowKey={(problem) =>
        `${problem.sheet}|${problem.row}|${problem.column}|${problem.path}|${problem.code}|${problem.message}`
      }
      columns={[
        { header: 'Hoja', rowHeader: true, cell: (problem) => problem.sheet ?? '—' },
        { header: 'Fila', numeric: true, cell: (problem) => problem.row ?? '—' },
        {
          header: 'Columna',
          cell: (problem) => <code>{problem.column ?? problem.path ?? '—'}</code>,
        },
        {
          header: 'Problema',
          // The catalogue's Spanish first; the code and the reader's own words (a library's error, an
          // English check) behind a collapsed "Detalles técnicos".
          cell: (problem) => (
            <TechnicalDetails
              technical={[problem.code, problem.message].filter((part) => part !== '').join(': ')}
            >
              {workbookProblemOf(problem.code)}
            </TechnicalDetails>
          ),
        },
      ]}
    />
  );
}
