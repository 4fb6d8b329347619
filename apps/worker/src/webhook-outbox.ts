/**
 * The worker's side of the webhook outbox (thin: the use-cases of `@ecf/services` decide and write).
 *
 * The outbox triggers NOTIFY `ecf_webhook_event` in the transaction of each change; this process
 * LISTENs on a connection of its own and runs the fan-out as soon as one arrives (runs never
 * overlap in a process; notifications during a run cause one more run), so a delivery job exists
 * milliseconds after the change commits. Every `sweepIntervalSeconds` it also runs the webhook sweep
 * (lapsed leases of dead workers back to the queue, overdue deliveries re-enqueued, leftover events
 * fanned out): a lost notification or a killed worker delays a delivery by seconds, never loses it.
 * `maintenance.sweep-webhooks` (every minute) is the same sweep for processes without this loop.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { WEBHOOK_EVENT_CHANNEL, type TDatabase, type TEnqueue } from '@ecf/db';
import { fanOutWebhookEvents, sweepWebhookDeliveries } from '@ecf/services';

export type TWebhookOutbox = { stop: () => Promise<void> };

export async function startWebhookOutbox(options: {
  databaseUrl: string;
  database: TDatabase;
  enqueue: TEnqueue;
  log: Logger;
  now: () => Date;
  /** 0 = no sweep loop (the minute schedule still runs it). */
  sweepIntervalSeconds: number;
}): Promise<TWebhookOutbox> {
  const { log } = options;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const fanOut = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await fanOutWebhookEvents({
            database: options.database,
            enqueue: options.enqueue,
            now: options.now,
          });
        } catch (error) {
          // The sweep (seconds) or the next notification retries.
          log.error({ err: error }, 'webhook fan-out failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };

  let client: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === WEBHOOK_EVENT_CHANNEL) fanOut();
    });
    const lost = (error?: Error) => {
      if (stopped || client !== next) return;
      client = undefined;
      log.warn({ err: error }, 'webhook outbox listener lost its connection; reconnecting');
      next.end().catch(() => undefined);
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    await next.connect();
    await next.query(`LISTEN ${WEBHOOK_EVENT_CHANNEL}`);
    client = next;
    // Whatever was recorded while nobody listened.
    fanOut();
  };
  const scheduleReconnect = (): void => {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch((error: unknown) => {
        log.error({ err: error }, 'webhook outbox listener could not connect');
        scheduleReconnect();
      });
    }, 1000);
    reconnectTimer.unref();
  };
  await connect();

  let sweeping: Promise<void> | undefined;
  const sweepTimer =
    options.sweepIntervalSeconds > 0
      ? setInterval(() => {
          if (stopped || sweeping) return;
          sweeping = sweepWebhookDeliveries({
            database: options.database,
            enqueue: options.enqueue,
            now: options.now,
          })
            .then(({ recovered, requeued }) => {
              if (recovered.length > 0)
                log.warn(
                  { recovered: recovered.length, deliveryIds: recovered.slice(0, 20) },
                  'webhook deliveries of dead workers put back in the queue',
                );
              else if (requeued.length > 0)
                log.info({ requeued: requeued.length }, 'overdue webhook deliveries re-enqueued');
            })
            .catch((error: unknown) => {
              log.error({ err: error }, 'webhook sweep failed');
            })
            .finally(() => {
              sweeping = undefined;
            });
        }, options.sweepIntervalSeconds * 1000)
      : undefined;
  sweepTimer?.unref();

  return {
    async stop() {
      stopped = true;
      if (sweepTimer) clearInterval(sweepTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await Promise.all([running, sweeping]);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
