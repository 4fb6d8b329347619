/**
 * The account page's reads and writes of a tenant: its profile (the issuer data documents are
 * filled from) and its settings (buyer e-mail per environment, payment term, deferred-send
 * authorization). A change and its audit entry commit together, on the tenant's row locked.
 */
import {
  inSqlTransaction,
  sqlPoolOf,
  type Environment,
  type ProductionState,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';

/** A tenant as the account page reads it. */
export type TAccountRow = {
  id: string;
  rnc: string;
  legalName: string;
  tradeName: string | null;
  address: string | null;
  phones: string[];
  fiscalEmail: string | null;
  productionState: ProductionState;
  buyerEmailEnvironments: Environment[];
  paymentTermDays: number | null;
  deferredSendAuthorized: boolean;
  updatedAt: Date;
};

/** The columns the account page may change, and how each is written. */
const WRITABLE = {
  legalName: 'legal_name = $%::text',
  tradeName: 'trade_name = $%::text',
  address: 'address = $%::text',
  phones: 'phones = $%::text[]',
  fiscalEmail: 'fiscal_email = $%::text',
  buyerEmailEnvironments: 'buyer_email_environments = $%::"Environment"[]',
  paymentTermDays: 'payment_term_days = $%::smallint',
  deferredSendAuthorized: 'deferred_send_authorized = $%::boolean',
} as const satisfies Partial<Record<keyof TAccountRow, string>>;

export type TAccountChanges = Partial<Pick<TAccountRow, keyof typeof WRITABLE>>;

const ACCOUNT_SELECT = `SELECT id::text AS "id", rnc, legal_name AS "legalName", trade_name AS "tradeName", address, phones,
  fiscal_email AS "fiscalEmail", production_state::text AS "productionState",
  buyer_email_environments::text[] AS "buyerEmailEnvironments", payment_term_days AS "paymentTermDays",
  deferred_send_authorized AS "deferredSendAuthorized", updated_at AS "updatedAt"
  FROM tenants WHERE id = $1::uuid`;

async function selectAccount(sql: TSql, tenantId: string, lock: boolean): Promise<TAccountRow | null> {
  const { rows } = await sql.query<TAccountRow>(`${ACCOUNT_SELECT}${lock ? ' FOR UPDATE' : ''}`, [tenantId]);
  return rows[0] ?? null;
}

/** The tenant's account row; null when there is no such tenant. */
export async function findAccountRow(database: TDatabase, tenantId: string): Promise<TAccountRow | null> {
  return selectAccount(sqlPoolOf(database), tenantId, false);
}

/**
 * Applies the changes that differ from the stored values and appends one audit entry listing them
 * (`data.before`, `data.after`), in one transaction; nothing is written when nothing differs.
 * Null when the tenant does not exist.
 */
export async function changeAccountRow(
  database: TDatabase,
  input: {
    tenantId: string;
    changes: TAccountChanges;
    at: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'at'>;
  },
): Promise<{ account: TAccountRow; changed: string[] } | null> {
  return inSqlTransaction(database, async (sql) => {
    const current = await selectAccount(sql, input.tenantId, true);
    if (current === null) return null;
    const fields = (Object.keys(input.changes) as (keyof TAccountChanges)[]).filter(
      (field) =>
        input.changes[field] !== undefined &&
        JSON.stringify(input.changes[field]) !== JSON.stringify(current[field]),
    );
    if (fields.length === 0) return { account: current, changed: [] };
    const values: unknown[] = [input.tenantId, input.at];
    const assignments = fields.map((field) => {
      values.push(input.changes[field]);
      return WRITABLE[field].replace('%', String(values.length));
    });
    await sql.query(
      `UPDATE tenants SET ${assignments.join(', ')}, updated_at = $2 WHERE id = $1::uuid`,
      values,
    );
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: input.tenantId,
      at: input.at,
      data: {
        ...input.audit.data,
        before: Object.fromEntries(fields.map((field) => [field, current[field]])),
        after: Object.fromEntries(fields.map((field) => [field, input.changes[field]])),
      },
    });
    const account = await selectAccount(sql, input.tenantId, false);
    if (account === null) throw new Error('the changed tenant vanished inside its transaction');
    return { account, changed: fields };
  });
}
