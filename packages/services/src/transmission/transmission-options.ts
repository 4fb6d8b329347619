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
   * How long an attempt without outcome may still be running in another process (default 2 min:
   * above authentication plus sending with the default 30 s timeout).
   */
  inFlightMs?: number;
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

/** How long an attempt without outcome may still be running elsewhere, by default. */
export const DEFAULT_IN_FLIGHT_MS = 120_000;
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
