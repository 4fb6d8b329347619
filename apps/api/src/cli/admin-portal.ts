// The admin CLI's portal commands: the operator creates portal users (a tenant's first owner, the
// operator's support staff) and memberships; everyone else arrives through an owner's invitation.
// Also the demo's portal users, whose passwords are kept like the demo keys in the ignored .data/.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { MemberRole, TDatabase } from '@ecf/db';
import { addMember, createUser, setUserPassword } from '@ecf/services';

/** `user create`: a portal user with the password read from a named variable (never from argv). */
export async function createPortalUser(options: {
  database: TDatabase;
  email: string;
  name: string;
  password: string;
  isSupport: boolean;
}) {
  const { created, user } = await createUser({
    database: options.database,
    email: options.email,
    name: options.name,
    password: options.password,
    isSupport: options.isSupport,
  });
  return { created, id: user.id, email: user.email, name: user.name, isSupport: user.isSupport };
}

/** `member add`: makes an existing user (by e-mail) a member of the tenant with a role (an existing membership keeps its role). */
export async function addPortalMember(options: {
  database: TDatabase;
  tenantId: string;
  email: string;
  role: MemberRole;
}) {
  return addMember(options);
}

const ZDemoUsersFile = z.object({
  owner: z.object({ email: z.string(), password: z.string() }),
  support: z.object({ email: z.string(), password: z.string() }),
});
export type TDemoPortalUsers = z.infer<typeof ZDemoUsersFile>;

const DEMO_USERS = {
  owner: { email: 'propietaria@demo-caribe.example', name: 'Olga Propietaria (demo)' },
  support: { email: 'soporte@ecf.localhost', name: 'Sergio Soporte (demo)' },
} as const;

function readSaved(file: string): TDemoPortalUsers | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = ZDemoUsersFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The demo's portal users: an owner of the demo tenant and an operator support user. Their
 * passwords are generated once and kept in `usersFile` (mode 600, ignored by git) so every start
 * prints the same ones; each start sets them again (a password changed in the portal goes back
 * to the file's, and the demo users' sessions end).
 */
export async function seedDemoPortalUsers(options: {
  database: TDatabase;
  tenantId: string;
  usersFile: string;
}): Promise<TDemoPortalUsers> {
  const saved = readSaved(options.usersFile);
  const users: TDemoPortalUsers = {
    owner: {
      email: DEMO_USERS.owner.email,
      password: saved?.owner.password ?? randomBytes(12).toString('base64url'),
    },
    support: {
      email: DEMO_USERS.support.email,
      password: saved?.support.password ?? randomBytes(12).toString('base64url'),
    },
  };
  for (const kind of ['owner', 'support'] as const) {
    const { created, user } = await createUser({
      database: options.database,
      email: users[kind].email,
      name: DEMO_USERS[kind].name,
      password: users[kind].password,
      isSupport: kind === 'support',
    });
    // The file's password is the demo's: set again on every start (a changed one, a restored database).
    if (!created)
      await setUserPassword({
        database: options.database,
        email: users[kind].email,
        password: users[kind].password,
      });
    if (kind === 'owner')
      await addMember({
        database: options.database,
        tenantId: options.tenantId,
        userId: user.id,
        role: 'owner',
      });
  }
  mkdirSync(path.dirname(options.usersFile), { recursive: true });
  writeFileSync(options.usersFile, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
  return users;
}
