/** @jsxRuntime automatic */
import { useId, type ReactNode } from 'react';
import styles from './table.module.css';

export type TTableColumn<TRow> = {
  /** Header text (also what a screen reader announces for each cell of the column). */
  header: ReactNode;
  cell: (row: TRow) => ReactNode;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** A row header cell (`<th scope="row">`): the column that names the row. */
  rowHeader?: boolean;
  /** Kept on one line (dates, codes, short labels): the row stays one line high, the table scrolls. */
  nowrap?: boolean;
};

function cellClass(column: { numeric?: boolean; nowrap?: boolean }): string | undefined {
  const classes = [column.numeric ? styles.numeric : '', column.nowrap ? styles.nowrap : ''].filter(Boolean);
  return classes.length === 0 ? undefined : classes.join(' ');
}

/**
 * A data table with a caption (its accessible name), column headers and, when there are no rows,
 * the `empty` message (a sentence, or an EmptyState with the next step) instead of an empty grid.
 * A table wider than the page scrolls inside a region named by the caption that takes keyboard
 * focus (so it can be scrolled without a mouse).
 */
export function Table<TRow>(props: {
  caption: ReactNode;
  /** Hide the caption visually (still the table's name for assistive technology). */
  captionHidden?: boolean;
  columns: readonly TTableColumn<TRow>[];
  rows: readonly TRow[];
  rowKey: (row: TRow) => string;
  empty?: ReactNode;
}) {
  const { caption, captionHidden = false, columns, rows, rowKey, empty = 'No hay nada que mostrar.' } = props;
  const captionId = useId();
  return (
    <div className={styles.wrapper} role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className={styles.table}>
        <caption id={captionId} className={captionHidden ? 'ecf-visually-hidden' : styles.caption}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={cellClass(column)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, index) =>
                column.rowHeader ? (
                  <th key={index} scope="row" className={cellClass(column)}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={index} className={cellClass(column)}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? (
        // A sentence stays a paragraph; an EmptyState (paragraphs and an action) needs a block.
        typeof empty === 'string' ? (
          <p className={styles.empty}>{empty}</p>
        ) : (
          <div className={styles.empty}>{empty}</div>
        )
      ) : null}
    </div>
  );
}
