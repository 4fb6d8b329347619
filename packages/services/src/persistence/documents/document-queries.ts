/**
 * Reads of issued documents for the API and the portal: one document by id or eNCF, batches of
 * references, the issued list's pages, the documents in contingency, and the stored signed XML.
 * Every read is scoped to a tenant and an environment unless its name says otherwise.
 */
import { prepared, sqlPoolOf } from '@ecf/db';
import type { Document, DocumentStatus, Environment, Prisma, TDatabase } from '@ecf/db';

type TScope = { tenantId: string; environment: Environment };

/** A tenant's document in one environment by id or eNCF; null when there is none. */
export async function findScopedDocument(
  database: TDatabase,
  input: TScope & ({ id: string } | { encf: string }),
): Promise<Document | null> {
  const scope = { tenantId: input.tenantId, environment: input.environment };
  return database.document.findFirst({
    where: 'id' in input ? { ...scope, id: input.id.toLowerCase() } : { ...scope, encf: input.encf },
  });
}

/** A document by id, whatever its tenant (a buyer link or a waiter already knows it is theirs); null when absent. */
export async function findDocumentById(database: TDatabase, documentId: string): Promise<Document | null> {
  return database.document.findUnique({ where: { id: documentId } });
}

/** What a status result shows of a document (`toStatusResult`). */
export type TDocumentStatusRow = Pick<
  Document,
  | 'id'
  | 'environment'
  | 'encf'
  | 'type'
  | 'status'
  | 'trackId'
  | 'securityCode'
  | 'qrUrl'
  | 'signatureDate'
  | 'lastError'
  | 'updatedAt'
>;

// One prepared statement of the columns a status shows (a status batch of 50 is the hot read of
// ERPs that poll): a Prisma model query of whole rows cost about 1 ms of CPU in its query compiler.
// Each half probes its own key, whatever the tenant's size: the eNCFs the unique (tenant,
// environment, eNCF) index, the ids the primary key, with the tenant and environment checked on
// the rows found (`IS TRUE`: a form no index matches). Written as one `OR`, the plan read the ids
// through an index led by the tenant: 75 ms for 50 statuses of a tenant with 100,000 documents,
// against 0.6 ms now. A document named by both its id and its eNCF comes once.
const STATUS_COLUMNS = `id, environment::text AS environment, encf, type, status::text AS status, track_id AS "trackId",
         security_code AS "securityCode", qr_url AS "qrUrl", signature_date AS "signatureDate",
         last_error AS "lastError", updated_at AS "updatedAt"`;
const STATUS_ROWS = `
  SELECT ${STATUS_COLUMNS} FROM documents
   WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND encf = ANY($3::text[])
  UNION ALL
  SELECT ${STATUS_COLUMNS} FROM documents
   WHERE id = ANY($4::uuid[]) AND (tenant_id = $1::uuid AND environment = $2::"Environment") IS TRUE
     AND NOT (encf = ANY($3::text[]))`;

/** A tenant's documents in one environment whose eNCF or id is among those given (the columns of a status). */
export async function findDocumentsByReferences(
  database: TDatabase,
  input: TScope & { encfs: string[]; ids: string[] },
): Promise<TDocumentStatusRow[]> {
  if (input.encfs.length + input.ids.length === 0) return [];
  const { rows } = await sqlPoolOf(database).query<TDocumentStatusRow>(
    prepared(STATUS_ROWS, [input.tenantId, input.environment, input.encfs, input.ids]),
  );
  return rows;
}

/**
 * Filters of the issued list (dates `YYYY-MM-DD`, the type as its two digits). The search members
 * are the portal's (issue 27), never sent by the REST API: an e-NCF prefix (upper case), an exact
 * TrackId or buyer RNC, and an amount range as decimal text.
 */
export type TIssuedFilters = {
  issueDateFrom?: string | undefined;
  issueDateTo?: string | undefined;
  type?: number | undefined;
  status?: DocumentStatus | undefined;
  encfPrefix?: string | undefined;
  trackId?: string | undefined;
  buyerRnc?: string | undefined;
  /**
   * Part of the buyer's name (any letter case; LIKE wildcards already escaped). With `trackId` as
   * well, either matches: one word of the search box may be a TrackId or a name.
   */
  buyerName?: string | undefined;
  amountMin?: string | undefined;
  amountMax?: string | undefined;
};

/** The issued list's WHERE without the keyset position (the indexes of 0021_document_search and 0024_search_names serve the search members). */
function issuedWhereOf(input: TScope & { filters: TIssuedFilters }): Prisma.DocumentWhereInput {
  const { filters } = input;
  return {
    tenantId: input.tenantId,
    environment: input.environment,
    // Receipts replaced by a certification restart stay stored but leave the issued list.
    replacedAt: null,
    ...(filters.type === undefined ? {} : { type: filters.type }),
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(filters.issueDateFrom || filters.issueDateTo
      ? {
          issueDate: {
            ...(filters.issueDateFrom ? { gte: new Date(`${filters.issueDateFrom}T00:00:00Z`) } : {}),
            ...(filters.issueDateTo ? { lte: new Date(`${filters.issueDateTo}T00:00:00Z`) } : {}),
          },
        }
      : {}),
    ...(filters.encfPrefix === undefined ? {} : { encf: { startsWith: filters.encfPrefix } }),
    ...(filters.trackId === undefined || filters.buyerName !== undefined ? {} : { trackId: filters.trackId }),
    ...(filters.buyerName === undefined
      ? {}
      : {
          // In AND: the keyset position of a page uses the top-level OR. Served by 0024's trigram index.
          AND: [
            {
              OR: [
                { buyerName: { contains: filters.buyerName, mode: 'insensitive' as const } },
                ...(filters.trackId === undefined ? [] : [{ trackId: filters.trackId }]),
              ],
            },
          ],
        }),
    ...(filters.buyerRnc === undefined ? {} : { buyerRnc: filters.buyerRnc }),
    ...(filters.amountMin === undefined && filters.amountMax === undefined
      ? {}
      : {
          // Decimal text straight to NUMERIC: an amount never passes through a float.
          totalAmount: {
            ...(filters.amountMin === undefined ? {} : { gte: filters.amountMin }),
            ...(filters.amountMax === undefined ? {} : { lte: filters.amountMax }),
          },
        }),
  };
}

/**
 * Up to `take` documents of the issued list, newest submission first, by keyset on
 * (submittedAt, id), starting after `after` when given.
 */
export async function findIssuedDocumentsPage(
  database: TDatabase,
  input: TScope & {
    filters: TIssuedFilters;
    after?: { submittedAt: Date; id: string };
    /** The portal's previous page: rows newer than this position, OLDEST first (the caller reverses them). */
    before?: { submittedAt: Date; id: string };
    take: number;
  },
): Promise<Document[]> {
  const { after, before } = input;
  const where: Prisma.DocumentWhereInput = {
    ...issuedWhereOf(input),
    ...(after
      ? {
          // The bound alone is what PostgreSQL can use as the index range (the OR only as a filter):
          // without it a page deep in the cursor reads every newer row first (bench/portal).
          submittedAt: { lte: after.submittedAt },
          OR: [
            { submittedAt: { lt: after.submittedAt } },
            { submittedAt: after.submittedAt, id: { lt: after.id } },
          ],
        }
      : {}),
    ...(before
      ? {
          submittedAt: { gte: before.submittedAt },
          OR: [
            { submittedAt: { gt: before.submittedAt } },
            { submittedAt: before.submittedAt, id: { gt: before.id } },
          ],
        }
      : {}),
  };
  const direction = before ? 'asc' : 'desc';
  return database.document.findMany({
    where,
    orderBy: [{ submittedAt: direction }, { id: direction }],
    take: input.take,
  });
}

/**
 * How many documents the issued list's filters match, counting at most `cap` + 1 rows (a LIMIT
 * subquery): past the cap the page says "más de N" instead of paying for an exact count.
 */
export async function countIssuedDocuments(
  database: TDatabase,
  input: TScope & { filters: TIssuedFilters; cap: number },
): Promise<{ count: number; capped: boolean }> {
  // Ordered as the list (Prisma's default for a counted `take` is the primary key, a scan of the whole table).
  const count = await database.document.count({
    where: issuedWhereOf(input),
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
    take: input.cap + 1,
  });
  return count > input.cap ? { count: input.cap, capped: true } : { count, capped: false };
}

/**
 * A tenant's issued documents (any environment among those given, receipts replaced by a restart
 * left out) whose e-NCF or TrackId is exactly `reference`: the portal's "Ir a e-NCF o TrackId".
 */
export async function findIssuedByReference(
  database: TDatabase,
  input: { tenantId: string; environments: Environment[]; encf: string; trackId: string },
): Promise<Pick<Document, 'id' | 'environment' | 'encf' | 'submittedAt'>[]> {
  return database.document.findMany({
    where: {
      tenantId: input.tenantId,
      environment: { in: input.environments },
      replacedAt: null,
      OR: [{ encf: input.encf }, { trackId: input.trackId }],
    },
    select: { id: true, environment: true, encf: true, submittedAt: true },
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
    take: 10,
  });
}

/** A tenant's documents in contingency in one environment, longest waiting first (at most 1,000). */
export async function findDocumentsInContingency(database: TDatabase, input: TScope): Promise<Document[]> {
  return database.document.findMany({
    where: { tenantId: input.tenantId, environment: input.environment, status: 'contingency' },
    orderBy: [{ contingencySince: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
}

/** The newest signed XML artifact of a tenant's document (its id and bytes); null when it was never signed. */
export async function findSignedXmlArtifact(
  database: TDatabase,
  input: { tenantId: string; documentId: string },
): Promise<{ id: string; content: Buffer } | null> {
  const artifact = await database.artifact.findFirst({
    where: { documentId: input.documentId, tenantId: input.tenantId, kind: 'signed_xml' },
    orderBy: { createdAt: 'desc' },
    select: { id: true, content: true },
  });
  return artifact === null ? null : { id: artifact.id, content: Buffer.from(artifact.content) };
}
