import { Table } from '@ecf/ui';
import styles from './overview.module.css';

/** Units of the chart's drawing (the SVG scales to the panel's width). */
const BAR_STEP = 10;
const CHART_HEIGHT = 100;

const DAY = new Intl.DateTimeFormat('es-DO', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** `YYYY-MM-DD` (a calendar day) as "20 nov." */
function dayLabel(day: string): string {
  return DAY.format(new Date(`${day}T00:00:00Z`));
}

/**
 * Accepted documents per day as a bar chart (CSS, drawn for sighted readers; hidden from assistive
 * technology) and the same numbers as a table, which is what screen readers get.
 */
export function OverviewAcceptedChart(props: { days: { day: string; count: number }[]; periodDays: number }) {
  const { days } = props;
  const max = Math.max(1, ...days.map((entry) => entry.count));
  const total = days.reduce((sum, entry) => sum + entry.count, 0);
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.caption}>
        {total} aceptados en los últimos {props.periodDays} días (por día de envío, hora de República
        Dominicana).
      </figcaption>
      {/* Attributes, not inline styles: the CSP allows no style attribute. */}
      <svg
        className={styles.bars}
        viewBox={`0 0 ${days.length * BAR_STEP} ${CHART_HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        {days.map((entry, index) => {
          const height = entry.count === 0 ? 0.5 : Math.max(1, (entry.count / max) * CHART_HEIGHT);
          return (
            <rect
              key={entry.day}
              className={entry.count === 0 ? styles.barEmpty : styles.bar}
              x={index * BAR_STEP + 1}
              y={CHART_HEIGHT - height}
              width={BAR_STEP - 2}
              height={height}
            >
              <title>{`${dayLabel(entry.day)}: ${entry.count}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last ? (
        <div className={styles.axis} aria-hidden="true">
          <span>{dayLabel(first.day)}</span>
          <span>{dayLabel(last.day)}</span>
        </div>
      ) : null}
      <details>
        <summary>Ver los datos como tabla</summary>
        <Table
          caption="Documentos aceptados por día"
          rows={[...days].reverse()}
          rowKey={(entry) => entry.day}
          columns={[
            { header: 'Día', rowHeader: true, cell: (entry) => dayLabel(entry.day) },
            { header: 'Aceptados', cell: (entry) => entry.count },
          ]}
        />
      </details>
    </figure>
  );
}
