import type { TDatabase } from '@ecf/db';
import { findPartnerRows } from '../persistence/index.ts';
import { partnerOf, type TPartner } from './partner-rules.ts';

/** Every Partner, oldest first (admin CLI). */
export async function findPartners(options: { database: TDatabase }): Promise<TPartner[]> {
  return (await findPartnerRows(options.database)).map(partnerOf);
}
