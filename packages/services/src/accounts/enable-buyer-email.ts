import type { Environment, TDatabase, Tenant } from '@ecf/db';
import { addBuyerEmailEnvironment } from '../persistence/index.ts';

/**
 * Turns on the buyer e-mail of an account in one environment: its accepted e-CF that carry
 * `CorreoComprador` are e-mailed to the buyer with a link to their PDF. Idempotent.
 */
export async function enableBuyerEmail(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}): Promise<Tenant> {
  return addBuyerEmailEnvironment(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
  });
}
