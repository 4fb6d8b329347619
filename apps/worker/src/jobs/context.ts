/**
 * What every job handler gets (`TJobContext`) and how a job is declared (`defineJob`): the queue
 * name and payload contract from `@ecf/db`, the handler, and the queue's retry policy.
 */
import { JOB_CONTRACTS, type TDatabase, type TEnqueue, type TJobName, type TJobPayload } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import type { TBuyerEmailOptions, TCertificateKeyring } from '@ecf/services';
import type { TTaxauthClient, TTaxauthEnvironment } from '@ecf/taxauth-client';
import type { QueueOptions } from 'pg-boss';
import type { Logger } from 'pino';

/**
 * SMTP, lookup and link settings of the buyer e-mail (from SMTP_*, WORKER_EMAIL_IN_FLIGHT_MS,
 * MAIL_FROM, PUBLIC_BASE_URL, RI_LINK_SECRET). The job tells operators through its log.
 */
export type TBuyerEmailSettings = Omit<TBuyerEmailOptions, 'now' | 'notifyOperator'>;

export type TJobContext = {
  database: TDatabase;
  log: Logger;
  now: () => Date;
  /**
   * The process's one enqueue function: with `executor`, jobs commit with a use-case's transaction;
   * without, a step's next job is inserted at once (the concurrent jobs of a fetch share one insert).
   */
  enqueue: TEnqueue;
  /** Master keys of the tenant certificates; absent when CERTIFICATE_MASTER_KEY is not configured. */
  certificateKeyring?: TCertificateKeyring;
  /** The tax authority client of an environment (one per environment for the process: it caches tokens). */
  taxauthClientFor?: (environment: TTaxauthEnvironment) => TTaxauthClient;
  /** Official XSDs (from XSD_DIRECTORY): signed XML is checked before it is stored. */
  xsdValidators?: TXsdValidators;
  /** Age after which the sweep re-enqueues a document no job is moving (WORKER_SWEEP_STALE_SECONDS). */
  sweepStaleAfterSeconds?: number;
  /** How long an attempt without outcome may still be running elsewhere (WORKER_TRANSMIT_IN_FLIGHT_MS). */
  transmitInFlightMs?: number;
  /**
   * This process's `worker_instances` lease, recorded on each transmission attempt; the age of a
   * lease after which its process is dead; and how long after a dead process's last renewal what
   * it sent has settled at the tax authority. An attempt whose process died is then resolved at once.
   */
  workerLease?: {
    instanceId: () => string;
    deadAfterSeconds: number;
    orphanSettleMs: number;
    leaseFresh: () => boolean;
  };
  /** SMTP and link settings of `document.email-buyer`. */
  buyerEmail?: TBuyerEmailSettings;
  /** Settings of `webhook.deliver` (WEBHOOKS_ALLOW_PRIVATE_TARGETS, WORKER_WEBHOOK_LEASE_SECONDS). */
  webhooks?: TWebhookSettings;
};

/** Settings of the webhook delivery job. */
export type TWebhookSettings = {
  /** Development only: loopback, private targets and plain HTTP allowed (local receivers). */
  allowPrivateTargets: boolean;
  /** The API's public address (PUBLIC_BASE_URL): its TesteCF test inboxes are always allowed targets. */
  inboxBaseUrl?: string;
  /** How long a claimed attempt may run before the sweep takes its worker for dead (default 60 s). */
  leaseMs?: number;
  /** Per-request timeout (default 10 s; tests). */
  timeoutMs?: number;
};

/** A job: its queue name, the payload contract, and the handler that runs a parsed payload. */
export type TJobDefinition<TName extends TJobName = TJobName> = {
  name: TName;
  schema: (typeof JOB_CONTRACTS)[TName];
  handle: (payload: TJobPayload<TName>, context: TJobContext) => Promise<void>;
  /** Cron schedule (UTC), for jobs that run periodically. */
  schedule?: string;
  /** Retry policy of the queue, inherited by every job sent to it (pg-boss defaults otherwise). */
  queue?: Pick<
    QueueOptions,
    'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax' | 'expireInSeconds' | 'heartbeatSeconds'
  >;
};

/** Any registered job, whatever its name. */
export type TAnyJobDefinition = { [TName in TJobName]: TJobDefinition<TName> }[TJobName];

/** A job declared with its queue's payload contract. */
export function defineJob<TName extends TJobName>(
  definition: Omit<TJobDefinition<TName>, 'schema'>,
): TJobDefinition<TName> {
  return { ...definition, schema: JOB_CONTRACTS[definition.name] };
}
