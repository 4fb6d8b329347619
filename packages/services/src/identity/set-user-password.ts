import { inSqlTransaction, type TDatabase } from '@ecf/db';
import { findUserByEmail, revokeUserSessionRows, updateUserPassword } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { hashPassword } from './passwords.ts';
import { normalizeEmail } from './tokens.ts';

/**
 * Sets a user's password (the operator's tools, the demo); like a reset, every session of the user
 * ends and the lock is lifted. NOT_FOUND when the address has no account.
 */
export async function setUserPassword(options: {
  database: TDatabase;
  email: string;
  password: string;
  now?: () => Date;
}): Promise<{ userId: string }> {
  const user = await findUserByEmail(options.database, normalizeEmail(options.email));
  if (user === null) throw new AppError('NOT_FOUND', 'User not found.');
  const passwordHash = await hashPassword(options.password);
  const at = (options.now ?? (() => new Date()))();
  await inSqlTransaction(options.database, async (sql) => {
    await updateUserPassword(sql, { userId: user.id, passwordHash, at });
    await revokeUserSessionRows(sql, { userId: user.id, at });
  });
  return { userId: user.id };
}
