import { JOB_CONTRACTS, type TDatabase, type TJobName, type TJobPayload } from '@ecf/db';
import type { TCertificateKeyring, TEnqueueJob, TEnqueueJobs } from '@ecf/services';
import type { TXsdValidators } from '@ecf/fiscal-core';
import type { QueueOptions } from 'pg-boss';
import type { Logger } from 'pino';
import { purgeExpired } from './purge-expired.ts';
import { signDocument } from './sign-document.ts';
import type { SendOptions } from 'pg-boss';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import { transmitDocument } from './transmit-document.ts';
import { pollDocumentStatusJob } from './poll-document-status.ts';
import { sweepDocumentsJob } from './sweep-documents.ts';
import { deliverToReceiverJob } from './deliver-to-receiver.ts';
import { emailBuyerJob, type TBuyerEmailSettings } from './email-buyer.ts';

export type TJobContext = {
  database: TDatabase;
  log: Logger;
  now: () => Date;
  /** Master keys of the tenant certificates; absent when CERTIFICATE_MASTER_KEY is not configured. */
  certificateKeyring?: TCertificateKeyring;
  /** Enqueues a follow-up job (pg-boss `send`); handlers that chain jobs need it. */
  send?: (name: TJobName, data: object, options?: SendOptions) => Promise<string | null>;
  /** The tax authority client of an environment (one per environment for the process: it caches tokens). */
  taxauthClientFor?: (environment: 'TesteCF' | 'CerteCF' | 'eCF') => TTaxauthClient;
  /** Enqueues a job inside a use-case's transaction (pg-boss `send` with `db`). */
  enqueue?: TEnqueueJob;
  /** Enqueues several jobs of one queue inside a use-case's transaction (pg-boss `insert` with `db`). */
  enqueueJobs?: TEnqueueJobs;
  /** Official XSDs (from XSD_DIRECTORY): signed XML is checked before it is stored. */
  xsdValidators?: TXsdValidators;
  /** Age after which the sweep re-enqueues a document no job is moving (WORKER_SWEEP_STALE_SECONDS). */
  sweepStaleAfterSeconds?: number;
  /** How long an attempt without outcome may still be running elsewhere (WORKER_TRANSMIT_IN_FLIGHT_MS). */
  transmitInFlightMs?: number;
  /** SMTP and link settings of `document.email-buyer` (SMTP_*, MAIL_FROM, PUBLIC_BASE_URL, RI_LINK_SECRET). */
  buyerEmail?: TBuyerEmailSettings;
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
    'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax' | 'expireInSeconds'
  >;
};

/** Any registered job, whatever its name. */
export type TAnyJobDefinition = { [TName in TJobName]: TJobDefinition<TName> }[TJobName];

function defineJob<TName extends TJobName>(
  definition: Omit<TJobDefinition<TName>, 'schema'>,
): TJobDefinition<TName> {
  return { ...definition, schema: JOB_CONTRACTS[definition.name] };
}

/** Every job the worker runs. Adding a job means adding its contract in @ecf/db and a line here. */
export const JOB_REGISTRY: TAnyJobDefinition[] = [
  defineJob({ name: 'maintenance.purge-expired', handle: purgeExpired, schedule: '*/10 * * * *' }),
  // Signing, then sending in the same job. Deferred signing (no usable certificate yet) is retried with backoff for about a day.
  defineJob({
    name: 'document.sign',
    handle: signDocument,
    queue: { retryLimit: 50, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 300 },
  }),
  // Transmission: retries on the contingency schedule are jobs the handler sends; these cover crashes and bugs.
  defineJob({
    name: 'document.transmit',
    handle: transmitDocument,
    queue: { retryLimit: 50, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 300 },
  }),
  defineJob({
    name: 'document.poll-status',
    handle: pollDocumentStatusJob,
    queue: { retryLimit: 50, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 300 },
  }),
  defineJob({
    name: 'document.deliver-to-receiver',
    handle: deliverToReceiverJob,
    queue: { retryLimit: 20, retryDelay: 60, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 300 },
  }),
  // Buyer e-mail: a failing SMTP server is retried for about a day (1 min doubling to 1 h); never blocks the pipeline.
  defineJob({
    name: 'document.email-buyer',
    handle: emailBuyerJob,
    queue: { retryLimit: 30, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 120 },
  }),
  // The safety net: documents no job is moving get their next step (see README "Sweeper").
  defineJob({
    name: 'maintenance.sweep-documents',
    handle: sweepDocumentsJob,
    schedule: '* * * * *',
    queue: { retryLimit: 0, expireInSeconds: 120 },
  }),
];
