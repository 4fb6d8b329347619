/**
 * The facts of an account's "first steps" (the portal overview's checklist, issue 27), in ONE
 * statement: a usable certificate, a TesteCF API key, a TesteCF document (accepted or not), a
 * webhook endpoint and whether one has a successful delivery, the latest certification case and
 * the production state. Each look-up is an EXISTS on an index that starts with the tenant
 * (`(tenant_id, active)`, `(tenant_id, environment)`, `(tenant_id, environment, status)`,
 * `(tenant_id, environment, status)` of the endpoints then `(endpoint_id, status, ...)`).
 */
import {
  prepared,
  sqlPoolOf,
  type CertificationCaseState,
  type CertificationStep,
  type ProductionState,
  type TDatabase,
} from '@ecf/db';

export type TFirstStepsRow = {
  productionState: ProductionState;
  /** An active, not revoked certificate that has not expired at `now`. */
  certificateInstalled: boolean;
  /** A TesteCF API key that is not revoked. */
  testKeyActive: boolean;
  /** Any TesteCF document, and one the tax authority accepted (conditionally included). */
  testDocumentSubmitted: boolean;
  testDocumentAccepted: boolean;
  /** A direct webhook endpoint that is not retired, and one of them with a successful delivery. */
  webhookEndpointExists: boolean;
  webhookDelivered: boolean;
  /** The open (or else the latest) certification case, as the accounts' listing picks it; null: none. */
  certification: { state: CertificationCaseState; step: CertificationStep } | null;
};

const FIRST_STEPS = `
  SELECT
    t.production_state::text AS "productionState",
    EXISTS (SELECT 1 FROM tenant_certificates c
             WHERE c.tenant_id = t.id AND c.active AND c.revoked_at IS NULL AND c.valid_to > $2::timestamptz)
      AS "certificateInstalled",
    EXISTS (SELECT 1 FROM api_keys k
             WHERE k.tenant_id = t.id AND k.environment = 'TesteCF' AND k.revoked_at IS NULL)
      AS "testKeyActive",
    EXISTS (SELECT 1 FROM documents d WHERE d.tenant_id = t.id AND d.environment = 'TesteCF')
      AS "testDocumentSubmitted",
    EXISTS (SELECT 1 FROM documents d
             WHERE d.tenant_id = t.id AND d.environment = 'TesteCF'
               AND d.status IN ('accepted', 'accepted_conditional'))
      AS "testDocumentAccepted",
    EXISTS (SELECT 1 FROM webhook_endpoints e
             WHERE e.tenant_id = t.id AND e.system = 'direct' AND e.status <> 'retired')
      AS "webhookEndpointExists",
    EXISTS (SELECT 1 FROM webhook_endpoints e
              JOIN webhook_deliveries w ON w.endpoint_id = e.id AND w.status = 'succeeded'
             WHERE e.tenant_id = t.id AND e.system = 'direct' AND e.status <> 'retired')
      AS "webhookDelivered",
    (SELECT json_build_object('state', cc.state, 'step', cc.step) FROM certification_cases cc
      WHERE cc.tenant_id = t.id
      ORDER BY (cc.state = 'closed'), cc.created_at DESC LIMIT 1) AS certification
  FROM tenants t
  WHERE t.id = $1::uuid`;

/** The first steps' facts of a tenant at `now`; null when the tenant does not exist. */
export async function findFirstStepsRow(
  database: TDatabase,
  input: { tenantId: string; now: Date },
): Promise<TFirstStepsRow | null> {
  const { rows } = await sqlPoolOf(database).query<TFirstStepsRow>(
    prepared(FIRST_STEPS, [input.tenantId, input.now]),
  );
  return rows[0] ?? null;
}
