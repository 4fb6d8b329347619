/**
 * @ecf/db: the Prisma schema and client, plain SQL helpers (pool, transactions, prepared
 * statements, group commit), SQL migrations and the migrator, named Prisma error codes, the job
 * contracts (and, at `@ecf/db/job-queue`, the one enqueue function), and the seed helpers shared
 * by tests and the demo setup.
 */
export { createDatabaseClient, sqlPoolOf, type TDatabase } from './client.ts';
export {
  CORRELATION_SETTING,
  currentCorrelationId,
  runWithCorrelationId,
  runWithoutCorrelationId,
} from './correlation.ts';
export {
  checkConnectionBudget,
  ConnectionBudgetError,
  DATABASE_BUSY_RETRY_AFTER_SECONDS,
  DEFAULT_CONNECTION_RESERVE,
  DEFAULT_POOL_TIMEOUT_MS,
  describeBudget,
  enforceConnectionBudget,
  isDatabaseBusy,
  totalOf,
  type TBudgetCheck,
  type TConnectionBudget,
} from './connection-budget.ts';
export {
  inPoolTransaction,
  inSqlTransaction,
  isSqlPool,
  jobExecutorOfSql,
  prepared,
  type TSql,
  type TSqlPool,
  type TJobExecutor,
} from './sql.ts';
export {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  settleEach,
  type TCoalesced,
  type TCoalescerOptions,
} from './coalesce.ts';
export { Prisma } from './generated/prisma/client.ts';
export * from './generated/prisma/enums.ts';
export type {
  Tenant,
  ApiKey,
  Document,
  DocumentEvent,
  DocumentFingerprint,
  Artifact,
  IdempotencyRecord,
  User,
  Membership,
  Invitation,
  PasswordReset,
  PortalSession,
  PortalAuditEntry,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  WebhookDeliveryAttempt,
} from './generated/prisma/client.ts';
export { PRISMA_ERROR, isPrismaError, type TPrismaErrorCode } from './errors.ts';
export {
  API_KEY_SCOPES,
  ALL_SCOPES,
  STANDARD_SCOPES,
  ENVIRONMENTS,
  generateApiKey,
  hashApiKey,
  scopeFromDatabase,
  type TScope,
} from './api-keys.ts';
export { seedTenant, seedApiKey, seedDocument, seedUser, seedMembership } from './seed.ts';
export { corruptArtifact, seedEncf, seedInbound, type TInboundSeed } from './seed-inbound.ts';
export { SEEDED_REJECTION_MESSAGE, seedRejectedCertificationRun } from './seed-certification.ts';
export { artifactData } from './artifacts.ts';
export {
  migrate,
  ensureDatabase,
  getMigrationStatus,
  readMigrationFiles,
  MigrationHistoryError,
  MIGRATIONS_DIRECTORY,
  type TMigrationStatus,
  type TMigrationFile,
} from './migrate.ts';
export type { TAnyJobRequest, TEnqueue, TJobRequest } from './job-queue.ts';
export {
  JOB_CONTRACTS,
  JOB_NAMES,
  JOB_QUEUE_SCHEMA,
  DOCUMENT_STATUS_CHANNEL,
  WEBHOOK_EVENT_CHANNEL,
  type TDocumentStatusNotification,
  type TJobName,
  type TJobPayload,
} from './jobs.ts';
