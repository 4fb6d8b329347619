/**
 * Builders of the SQL text the guarded writes are made of: typed parameters, column assignments
 * and the data-modifying CTEs (artifacts, events) that go with a guarded update, and which of the
 * episode closes asked together is applied. Pure: they return text and collect values;
 * `guarded-write.ts` runs them.
 */
import { randomUUID } from 'node:crypto';
import { artifactData, type DocumentStatus, type Environment } from '@ecf/db';

/**
 * The sequence number of an eNCF as SQL (`bigint`), or NULL when the text is not eNCF-shaped
 * (`E` + type + ten digits). Never `substr(x, 4)::bigint`: client text such as `abc` or `E31` would
 * make the whole statement fail (`invalid input syntax for type bigint`), and WHERE clauses do not
 * guarantee that a format test runs before the cast. The regular expression cannot fail.
 */
export const ENCF_NUMBER = (expression: string): string =>
  `substring(${expression} from '^E[0-9]{2}([0-9]{10})$')::bigint`;

/** Appends a value to the statement and returns its typed placeholder (`$n::type`). */
export type TParameter = (value: unknown, type: string) => string;

/** The values of a statement and the function that appends one and returns its placeholder. */
export function parameters(): { values: unknown[]; parameter: TParameter } {
  const values: unknown[] = [];
  return {
    values,
    parameter: (value, type) => {
      values.push(value);
      return `$${values.length}::${type}`;
    },
  };
}

/** `column = $n::type` for each column set; jsonb values are sent as JSON text, null as SQL NULL. */
export function assignmentsOf(
  set: Record<string, unknown>,
  types: Readonly<Record<string, string>>,
  parameter: TParameter,
  caller: string,
): string[] {
  return Object.entries(set).map(([column, value]) => {
    const type = types[column];
    if (type === undefined) throw new TypeError(`${caller}: column ${column} cannot be set`);
    const stored =
      type === 'jsonb' && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null);
    return `${column} = ${parameter(stored, type)}`;
  });
}

/** An event of the document's log; events of one change get ids in the order given. */
export type TEventInput = {
  type: string;
  fromStatus?: DocumentStatus | null;
  toStatus?: DocumentStatus | null;
  data: Record<string, unknown>;
  at: Date;
};

/** An artifact row (see `artifactData`) with its id chosen beforehand, so events can name it. */
export type TArtifactInput = ReturnType<typeof artifactData> & { id: string };

/** Builds an artifact row for a guarded write with a fresh id (the digest is computed here, once). */
export function artifactInput(input: Parameters<typeof artifactData>[0]): TArtifactInput {
  return { ...artifactData(input), id: randomUUID() };
}

/**
 * A CTE `name` inserting `events` for the row of CTE `target` (its `id`, `tenant_id`: the
 * document), in the order given. `when`: an extra condition on `target`'s row.
 */
export function eventsInsert(
  events: readonly TEventInput[],
  parameter: TParameter,
  target: string,
  name: string,
  when?: string,
): string | undefined {
  if (events.length === 0) return undefined;
  const rows = events.map(
    (event, index) =>
      `(${index}, ${parameter(event.type, 'text')}, ${parameter(event.fromStatus ?? null, '"DocumentStatus"')}, ${parameter(event.toStatus ?? null, '"DocumentStatus"')}, ${parameter(JSON.stringify(event.data), 'jsonb')}, ${parameter(event.at, 'timestamptz')})`,
  );
  return `${name} AS (INSERT INTO document_events (document_id, tenant_id, type, from_status, to_status, data, created_at)
    SELECT ${target}.id, ${target}.tenant_id, e.type, e.from_status, e.to_status, e.data, e.created_at
    FROM ${target} CROSS JOIN (VALUES ${rows.join(', ')}) AS e(ord, type, from_status, to_status, data, created_at)
    ${when === undefined ? '' : `WHERE ${when}`}
    ORDER BY e.ord)`;
}

/** CTEs inserting `artifacts` for the row of CTE `target` (its `id`, `tenant_id`: the document). */
export function artifactsInsert(
  artifacts: readonly TArtifactInput[],
  parameter: TParameter,
  target: string,
  prefix: string,
): string[] {
  return artifacts.map(
    (artifact, index) =>
      `${prefix}_${index} AS (INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, created_at)
        SELECT ${parameter(artifact.id, 'uuid')}, ${target}.tenant_id, ${target}.id, ${parameter(artifact.kind, '"ArtifactKind"')}, ${parameter(artifact.contentType, 'text')},
          ${parameter(artifact.content, 'bytea')}, ${parameter(artifact.sha256, 'text')}, ${parameter(artifact.sizeBytes, 'int')}, ${parameter(artifact.createdAt ?? new Date(), 'timestamptz')}
        FROM ${target})`,
  );
}

/** The reception services whose outage an episode records (see `episodes.ts`). */
export type TReceptionService = 'recepcion' | 'recepcionfc';

/**
 * The evidence that closes an episode: a successful reception of `service` in `environment`,
 * answered at `at`, whose request left at `requestedAt`.
 */
export type TEpisodeClose = {
  environment: Environment;
  service: TReceptionService;
  requestedAt: Date;
  at: Date;
};

/**
 * Of the closes asked together, the one each episode (environment and service) is closed with: the
 * latest request, the best evidence (if it left before the episode opened, none of the others did
 * either). Answers the chosen indexes, each with the indexes of its group.
 */
export function latestClosePerEpisode(
  closes: ReadonlyArray<TEpisodeClose | undefined>,
): Map<number, number[]> {
  const groups = new Map<string, number[]>();
  closes.forEach((close, index) => {
    if (close === undefined) return;
    const key = `${close.environment}:${close.service}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const chosen = new Map<number, number[]>();
  for (const indexes of groups.values()) {
    const latest = indexes.reduce((best, index) =>
      (closes[index] as TEpisodeClose).requestedAt > (closes[best] as TEpisodeClose).requestedAt
        ? index
        : best,
    );
    chosen.set(latest, indexes);
  }
  return chosen;
}
