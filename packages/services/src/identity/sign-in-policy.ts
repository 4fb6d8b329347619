/** The portal's brute-force policy and its defaults (the portal may tighten or relax them by configuration). */

export type TSignInPolicy = {
  /** Consecutive failed sign-ins of one e-mail after which each failure locks it. */
  lockThreshold: number;
  /** The lock after the `lockThreshold`-th failure; each further failure doubles it. */
  lockBaseSeconds: number;
  /** The longest lock. */
  lockMaxSeconds: number;
  /** Attempts from one client address allowed per window (sign-ins and reset requests count apart). */
  ipMaxAttempts: number;
  ipWindowSeconds: number;
  /** How long the failure count of an e-mail WITHOUT an account is kept after its last failure. */
  unknownEmailKeepSeconds: number;
};

export const DEFAULT_SIGN_IN_POLICY: TSignInPolicy = {
  lockThreshold: 5,
  lockBaseSeconds: 30,
  lockMaxSeconds: 15 * 60,
  ipMaxAttempts: 50,
  ipWindowSeconds: 15 * 60,
  unknownEmailKeepSeconds: 30 * 24 * 3600,
};

/**
 * The lock after each consecutive failure: element n-1 is the lock after the n-th (0: none), the
 * last element repeating beyond the list: 0 × (threshold - 1), then base, 2 × base... up to the max.
 * The one definition both stores (an account's row, an unknown e-mail's counter) apply.
 */
export function lockSecondsAfterFailures(policy: TSignInPolicy): number[] {
  const locks: number[] = Array.from({ length: Math.max(0, policy.lockThreshold - 1) }, () => 0);
  for (let delay = policy.lockBaseSeconds; ; delay *= 2) {
    locks.push(Math.min(delay, policy.lockMaxSeconds));
    if (delay >= policy.lockMaxSeconds) return locks;
  }
}

/** The lock `lockSecondsAfterFailures` gives after `failures` consecutive failures. */
export function lockSecondsAfter(policy: TSignInPolicy, failures: number): number {
  if (failures <= 0) return 0;
  const locks = lockSecondsAfterFailures(policy);
  return locks[Math.min(failures, locks.length) - 1] ?? 0;
}

/** How long a portal session lives from its sign-in (absolute: no sliding renewal). */
export const DEFAULT_SESSION_TTL_SECONDS = 12 * 3600;
/** How long an invitation link stays valid. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;
/** How long a password reset link stays valid. */
export const PASSWORD_RESET_TTL_SECONDS = 3600;
