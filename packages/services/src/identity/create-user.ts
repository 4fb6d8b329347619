import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { findUserByEmail, insertUser, type TUserRow } from '../persistence/index.ts';
import { hashPassword } from './passwords.ts';
import { normalizeEmail } from './tokens.ts';

/**
 * Creates a portal user with a password (the operator's tools and the demo: everyone else arrives
 * through an invitation). An existing address keeps its account: `created: false`, nothing changed.
 */
export async function createUser(options: {
  database: TDatabase;
  email: string;
  name: string;
  password: string;
  isSupport?: boolean;
  now?: () => Date;
}): Promise<{ created: boolean; user: Omit<TUserRow, 'passwordHash'> }> {
  const email = normalizeEmail(options.email);
  const inserted = await insertUser(sqlPoolOf(options.database), {
    email,
    name: options.name.trim(),
    passwordHash: await hashPassword(options.password),
    isSupport: options.isSupport ?? false,
    at: (options.now ?? (() => new Date()))(),
  });
  const user = inserted.created ? inserted.user : await findUserByEmail(options.database, email);
  if (user === null) throw new Error('the user was neither created nor found');
  const { passwordHash: _hash, ...visible } = user;
  return { created: inserted.created, user: visible };
}
