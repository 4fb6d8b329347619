/** What the transmission use-cases take and report. */
import type { DocumentStatus, Environment, TEnqueue } from '@ecf/db';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import type { TCertificateSource } from '../accounts/index.ts';
import type { TOperatorNotification } from '../persistence/index.ts';
import type { TTransmissionError } from './transmission-rules.ts';

/** Options shared by the transmission use-cases. */
export type TTransmissionOptions = TCertificateSource & {
  /** The tax authority client of an environment. Keep one per environment for the process: it holds the token cache. */
  clientFor: (environment: Environment) => TTaxauthClient;
  /** Clock; default the system clock. Every stored time and every schedule decision reads it. */
  now?: () => Date;
  /**
   * How long an attempt without outcome may still be running in another process (default 45 s:
   * authentication plus sending with the stack's default 15 s timeout). An attempt whose process is
   * known to be gone (`workerInstanceId`, `workerDeadAfterSeconds`) does not wait for it.
   */
  inFlightMs?: number;
  /**
   * The `worker_instances` lease of the process running this step (the worker's; it changes if
   * the process had to register again). Recorded on every attempt, so that another process can
   * tell an attempt whose sender died (resolved at once, by asking the tax authority) from one
   * that may still be on its way (waited for, up to `inFlightMs`).
   */
  workerInstanceId?: () => string;
  /**
   * A process whose lease was not renewed for this long is dead (the worker's recovery uses the
   * same: 1.5 x the jobs' heartbeat; default 15 s).
   */
  workerDeadAfterSeconds?: number;
  /**
   * How long after a dead process's last lease renewal a request it sent has settled at the tax
   * authority (registered, or never to be): one renewal interval (the process may have lived that
   * long after it) plus the client's timeout per exchange (a reception not answered within it is
   * one we give up on anyway). The worker passes heartbeat / 4 + TAXAUTH_TIMEOUT_MS; default 17.5 s.
   */
  orphanSettleMs?: number;
  /**
   * False once this process's own lease is old enough that others may soon take it for dead (a
   * long pause): the request is then not sent after the attempt was committed; the attempt stays
   * without outcome and is resolved by asking the tax authority, never by a second send racing
   * another process's. Without it every committed attempt is sent.
   */
  workerLeaseFresh?: () => boolean;
  /** Sends an operator notification (the worker logs it at warn). */
  notifyOperator?: (notification: TOperatorNotification) => void | Promise<void>;
  /**
   * Enqueues the next steps an acceptance brings (receiver delivery, buyer e-mail) in the
   * acceptance's own transaction; without it an acceptance enqueues nothing.
   */
  enqueue?: TEnqueue;
};

/** What the caller should do next. `afterSeconds` is counted from now. */
export type TTransmissionNext =
  | { next: 'done'; status: DocumentStatus | 'not_found'; outcome: string }
  | { next: 'poll'; afterSeconds: number; outcome: string }
  | { next: 'retry'; afterSeconds: number; outcome: string };

/** What a step also reports, for logs: episode edges and notifications. */
export type TTransmissionReport = TTransmissionNext & {
  documentId: string;
  episode?: 'degraded' | 'restored';
  notification?: TOperatorNotification;
  lastError?: TTransmissionError;
};

/** How long an attempt without outcome may still be running elsewhere, by default (3 x the 15 s timeout). */
export const DEFAULT_IN_FLIGHT_MS = 45_000;
/**
 * While the process of an attempt without outcome is alive, a run looks again this often (at
 * most) whether it died, rather than sleeping through the whole in-flight window.
 */
export const IN_FLIGHT_RECHECK_SECONDS = 5;
/** Default of `workerDeadAfterSeconds`: 1.5 x the default job heartbeat (10 s). */
export const DEFAULT_WORKER_DEAD_AFTER_SECONDS = 15;
/** Default of `orphanSettleMs`: a renewal interval (2.5 s) plus the stack's default timeout (15 s). */
export const DEFAULT_ORPHAN_SETTLE_MS = 17_500;
/** Statuses a send starts from. */
export const TRANSMITTABLE: DocumentStatus[] = ['signed', 'contingency'];
/** A synchronous RFCE answer that is not final: ask again this much later (via Consulta Estado). */
export const RFCE_UNSETTLED_RETRY_SECONDS = 60;

export function withEpisode(
  report: TTransmissionReport,
  episode: 'degraded' | 'restored' | undefined,
): TTransmissionReport {
  return episode === undefined ? report : { ...report, episode };
}
