/**
 * Password hashing: argon2id (`@node-rs/argon2`, prebuilt: no native build) with OWASP's minimum
 * parameters (19 MiB, 2 passes, 1 lane), stored as a PHC string that carries its parameters, so
 * they can be raised later without invalidating stored hashes.
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** `Algorithm.Argon2id`: the package declares a const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;
const PARAMETERS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Longest password accepted: bounds the work one request can ask of the hash. */
export const PASSWORD_MAX_LENGTH = 1024;

/** The argon2id hash (PHC string) of a password. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length === 0 || password.length > PASSWORD_MAX_LENGTH)
    throw new RangeError('a password has 1 to 1024 characters');
  return hash(password, PARAMETERS);
}

/** True when `password` is the one `passwordHash` was made from; false for anything else, malformed hashes included. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length === 0 || password.length > PASSWORD_MAX_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash no password is known for: checked when the e-mail has no account, so that a sign-in
 * costs about the same time whether or not the e-mail exists.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash(`no-account-${Math.random()}`, PARAMETERS);
  return dummyHash;
}
