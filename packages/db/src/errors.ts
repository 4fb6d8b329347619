/** Prisma's error codes this project reacts to, by name. */
export const PRISMA_ERROR = {
  /** A unique constraint was violated (for example a second document with the same eNCF). */
  uniqueConstraintViolation: 'P2002',
  /** A foreign key constraint was violated. */
  foreignKeyViolation: 'P2003',
  /** A record required by the operation (update, delete, connect) was not found. */
  recordNotFound: 'P2025',
} as const;

export type TPrismaErrorCode = (typeof PRISMA_ERROR)[keyof typeof PRISMA_ERROR];

/** True when `error` is a Prisma known-request error with the given code. */
export function isPrismaError(error: unknown, code: TPrismaErrorCode): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
