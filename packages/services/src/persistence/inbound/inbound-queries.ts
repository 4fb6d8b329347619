/**
 * Reads of received documents (`inbound_documents`: e-CF suppliers sent, ACECF customers sent) for
 * the API and the portal, the kept copies' bytes, and the two writes of the jobs that follow a
 * reception: the validity Consulta Estado gave, and the sweep that announces approaching
 * commercial-approval deadlines (its outbox row is written by the table's trigger, migration 0015,
 * in the same statement). Every read is scoped to a tenant and an environment.
 */
import type { Environment, InboundKind, Prisma, TDatabase } from '@ecf/db';
import { sqlPoolOf } from '@ecf/db';

type TScope = { tenantId: string; environment: Environment };

type InboundDocument = Prisma.InboundDocumentGetPayload<object>;

/** Filters of the received e-CF list (`type` as its two digits; dates of reception, Dominican time). */
export type TReceivedFilters = {
  group?: 'pending_approval' | 'accepted' | 'rejected' | 'not_received' | undefined;
  type?: number | undefined;
  encf?: string | undefined;
  issuerRnc?: string | undefined;
  buyerRnc?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** The portal's search (issue 27), never sent by the REST API: an e-NCF prefix (upper case). */
  encfPrefix?: string | undefined;
  /** Part of the supplier's name (any letter case; LIKE wildcards already escaped). */
  issuerName?: string | undefined;
  /** Amount range of `MontoTotal`, decimal text (NUMERIC, never a float), both ends included. */
  amountMin?: string | undefined;
  amountMax?: string | undefined;
};

/** Start of a Dominican Republic calendar day (UTC-4 all year) as an instant. */
function dominicanDayStart(date: string): Date {
  return new Date(`${date}T04:00:00.000Z`);
}

function groupWhere(group: TReceivedFilters['group']): Prisma.InboundDocumentWhereInput {
  switch (group) {
    case undefined:
      return {};
    case 'not_received':
      return { status: 'not_received' };
    case 'pending_approval':
      return { status: 'received', commercialApprovals: { none: { supersededAt: null } } };
    case 'accepted':
    case 'rejected':
      return {
        status: 'received',
        commercialApprovals: {
          some: { supersededAt: null, decision: group === 'accepted' ? 'accept' : 'reject' },
        },
      };
  }
}

const withActiveApproval = {
  commercialApprovals: { where: { supersededAt: null }, orderBy: { createdAt: 'desc' }, take: 1 },
} satisfies Prisma.InboundDocumentInclude;

/** A received row with its active commercial approval (none, or the one not superseded). */
export type TInboundRow = Prisma.InboundDocumentGetPayload<{ include: typeof withActiveApproval }>;

type TInboundPosition = { receivedAt: Date; id: string };

/**
 * The received list's WHERE: its filters, and a keyset bound (`after`: older rows; `before`: newer
 * rows). The search members are served by 0024_search_names's indexes (partial on the e-CF kind).
 */
function inboundWhereOf(
  input: TScope & {
    kind: InboundKind;
    filters: TReceivedFilters;
    after?: TInboundPosition | undefined;
    before?: TInboundPosition | undefined;
  },
): Prisma.InboundDocumentWhereInput {
  const { filters, after, before } = input;
  const received: Prisma.DateTimeFilter = {
    ...(filters.from ? { gte: dominicanDayStart(filters.from) } : {}),
    ...(filters.to ? { lt: new Date(dominicanDayStart(filters.to).getTime() + 86_400_000) } : {}),
    ...(after ? { lte: after.receivedAt } : {}),
  };
  const amount: Prisma.DecimalNullableFilter = {
    // Decimal text straight to NUMERIC: an amount never passes through a float.
    ...(filters.amountMin === undefined ? {} : { gte: filters.amountMin }),
    ...(filters.amountMax === undefined ? {} : { lte: filters.amountMax }),
  };
  return {
    tenantId: input.tenantId,
    environment: input.environment,
    kind: input.kind,
    ...(filters.type === undefined ? {} : { ecfType: filters.type }),
    ...(filters.encf === undefined && filters.encfPrefix === undefined
      ? {}
      : {
          encf: {
            ...(filters.encf === undefined ? {} : { equals: filters.encf }),
            ...(filters.encfPrefix === undefined ? {} : { startsWith: filters.encfPrefix }),
          },
        }),
    ...(filters.issuerRnc === undefined ? {} : { issuerRnc: filters.issuerRnc }),
    ...(filters.buyerRnc === undefined ? {} : { buyerRnc: filters.buyerRnc }),
    ...(filters.issuerName === undefined
      ? {}
      : { issuerName: { contains: filters.issuerName, mode: 'insensitive' as const } }),
    ...(Object.keys(amount).length === 0 ? {} : { totalAmount: amount }),
    ...(Object.keys(received).length === 0 ? {} : { receivedAt: received }),
    AND: [
      groupWhere(filters.group),
      after
        ? {
            OR: [
              { receivedAt: { lt: after.receivedAt } },
              { receivedAt: after.receivedAt, id: { lt: after.id } },
            ],
          }
        : {},
      before
        ? {
            receivedAt: { gte: before.receivedAt },
            OR: [
              { receivedAt: { gt: before.receivedAt } },
              { receivedAt: before.receivedAt, id: { gt: before.id } },
            ],
          }
        : {},
    ],
  };
}

/**
 * Up to `take` received rows of one kind, newest reception first, by keyset on (receivedAt, id):
 * after `after`, or (the portal's previous page) the rows newer than `before`, OLDEST first (the
 * caller reverses them).
 */
export async function findInboundPage(
  database: TDatabase,
  input: TScope & {
    kind: InboundKind;
    filters: TReceivedFilters;
    after?: TInboundPosition;
    before?: TInboundPosition;
    take: number;
  },
): Promise<TInboundRow[]> {
  const direction = input.before ? 'asc' : 'desc';
  return database.inboundDocument.findMany({
    where: inboundWhereOf(input),
    include: withActiveApproval,
    orderBy: [{ receivedAt: direction }, { id: direction }],
    take: input.take,
  });
}

/**
 * How many received rows of a kind the filters match, counting at most `cap` + 1 (a LIMIT
 * subquery): past the cap the page says "más de N".
 */
export async function countInboundDocuments(
  database: TDatabase,
  input: TScope & { kind: InboundKind; filters: TReceivedFilters; cap: number },
): Promise<{ count: number; capped: boolean }> {
  // Ordered as the list (Prisma's default for a counted `take` is the primary key, a scan of the whole table).
  const count = await database.inboundDocument.count({
    where: inboundWhereOf(input),
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: input.cap + 1,
  });
  return count > input.cap ? { count: input.cap, capped: true } : { count, capped: false };
}

/** One received row of a kind in the tenant's environment; null for another tenant, environment or kind. */
export async function findInboundItem(
  database: TDatabase,
  input: TScope & { kind: InboundKind; id: string },
): Promise<TInboundRow | null> {
  return database.inboundDocument.findFirst({
    where: { id: input.id, tenantId: input.tenantId, environment: input.environment, kind: input.kind },
    include: withActiveApproval,
  });
}

/**
 * The tenant's received e-CF (any environment among those given) with exactly this e-NCF: the
 * portal's "Ir a e-NCF o TrackId" (a received e-CF has no TrackId of ours). Served by the
 * (tenant_id, environment, kind, encf) index.
 */
export async function findReceivedByEncf(
  database: TDatabase,
  input: { tenantId: string; environments: Environment[]; encf: string },
): Promise<Pick<InboundDocument, 'id' | 'environment' | 'encf' | 'receivedAt'>[]> {
  return database.inboundDocument.findMany({
    where: {
      tenantId: input.tenantId,
      environment: { in: input.environments },
      kind: 'ecf',
      encf: input.encf,
    },
    select: { id: true, environment: true, encf: true, receivedAt: true },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: 10,
  });
}

/** A kept copy of the tenant's (bytes and recorded SHA-256); null when absent. */
export async function findInboundArtifact(
  database: TDatabase,
  input: { tenantId: string; artifactId: string },
): Promise<{ content: Buffer; sha256: string; retainUntil: Date | null } | null> {
  const artifact = await database.artifact.findFirst({
    where: { id: input.artifactId, tenantId: input.tenantId },
    select: { content: true, sha256: true, retainUntil: true },
  });
  return artifact === null
    ? null
    : { content: Buffer.from(artifact.content), sha256: artifact.sha256, retainUntil: artifact.retainUntil };
}

/** What the validity check needs: the received e-CF, with its kept XML (for the security code). */
export async function findInboundForValidityCheck(
  database: TDatabase,
  inboundDocumentId: string,
): Promise<(InboundDocument & { xml: Buffer | null }) | null> {
  const row = await database.inboundDocument.findUnique({ where: { id: inboundDocumentId } });
  if (row === null) return null;
  const artifact = row.xmlArtifactId
    ? await database.artifact.findUnique({ where: { id: row.xmlArtifactId }, select: { content: true } })
    : null;
  return { ...row, xml: artifact ? Buffer.from(artifact.content) : null };
}

/** Stores what Consulta Estado said of a received e-CF. */
export async function recordInboundValidity(
  database: TDatabase,
  input: { inboundDocumentId: string; validity: Prisma.InputJsonObject; checkedAt: Date },
): Promise<void> {
  await database.inboundDocument.update({
    where: { id: input.inboundDocumentId },
    data: { taxauthValidity: input.validity, taxauthValidityCheckedAt: input.checkedAt },
  });
}

/**
 * Marks every received e-CF still unanswered (no active commercial approval) whose deadline (day 15
 * of the month after `FechaEmision`) is today or within the next `withinDays` Dominican days, and
 * not yet announced: ONE statement, so the outbox rows its trigger writes
 * (`document.commercial_approval_due`) commit with the marks, once per e-CF whoever runs it.
 */
export async function markCommercialApprovalsDue(
  database: TDatabase,
  input: { now: Date; withinDays: number },
): Promise<Array<{ id: string; tenantId: string; environment: Environment; deadline: string }>> {
  const result = await sqlPoolOf(database).query<{
    id: string;
    tenant_id: string;
    environment: Environment;
    deadline: string;
  }>(
    `WITH today AS (SELECT ($1::timestamptz AT TIME ZONE 'America/Santo_Domingo')::date AS day),
     candidates AS (
       SELECT d."id",
              COALESCE(d."approval_deadline",
                       (date_trunc('month', d."issue_date") + interval '1 month 14 days')::date) AS deadline
         FROM "inbound_documents" d
        WHERE d."kind" = 'ecf' AND d."status" = 'received' AND d."approval_due_notified_at" IS NULL
          AND (d."approval_deadline" IS NOT NULL OR d."issue_date" IS NOT NULL)),
     due AS (
       SELECT c."id", c.deadline FROM candidates c, today
        WHERE c.deadline >= today.day AND c.deadline - today.day <= $2)
     UPDATE "inbound_documents" d SET "approval_due_notified_at" = $1, "approval_deadline" = due.deadline
       FROM due
      WHERE d."id" = due."id"
        -- Re-checked on the row's latest version when another run changed it meanwhile: once per e-CF.
        AND d."approval_due_notified_at" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "commercial_approvals" a
                         WHERE a."inbound_document_id" = d."id" AND a."superseded_at" IS NULL)
      RETURNING d."id", d."tenant_id", d."environment", to_char(due.deadline, 'YYYY-MM-DD') AS deadline`,
    [input.now, input.withinDays],
  );
  return result.rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    environment: row.environment,
    deadline: row.deadline,
  }));
}
