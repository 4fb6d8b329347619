import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { DOCUMENT_STATUS_CHANNEL, type TDocumentStatusNotification } from '@ecf/db';

/**
 * One LISTEN connection per API process on `ecf_document_status` (the documents trigger announces
 * every status change), dispatching to the requests waiting on a document (`Prefer: wait`). Waiting
 * holds no pooled connection and polls nothing: a waiter sleeps until its document is announced or
 * its deadline passes.
 */
export function createDocumentWaiter(options: { databaseUrl: string; log: FastifyBaseLogger }) {
  const waiters = new Map<string, Set<() => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  function dispatch(message: pg.Notification): void {
    if (!message.payload) return;
    let notification: TDocumentStatusNotification;
    try {
      notification = JSON.parse(message.payload) as TDocumentStatusNotification;
    } catch {
      return;
    }
    for (const wake of waiters.get(notification.documentId) ?? []) wake();
  }

  function listening(): Promise<void> {
    connecting ??= (async () => {
      const connection = new pg.Client({ connectionString: options.databaseUrl });
      connection.on('notification', dispatch);
      connection.on('error', (error) => {
        options.log.warn({ err: error }, 'document status listener lost its connection');
        // Reconnect on the next wait; current waiters fall back to their deadline and re-check.
        if (client === connection) {
          client = undefined;
          connecting = undefined;
        }
        for (const set of waiters.values()) for (const wake of set) wake();
      });
      await connection.connect();
      await connection.query(`LISTEN ${DOCUMENT_STATUS_CHANNEL}`);
      client = connection;
    })().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  }

  /**
   * Waits until `isDone()` holds or `timeoutMs` passes. Subscribes first, then checks once (a change
   * committed between the caller's read and the LISTEN is not missed), then re-checks only when the
   * document is announced. Answers the last `check()` result.
   */
  async function waitFor<T>(
    documentId: string,
    timeoutMs: number,
    check: () => Promise<T>,
    isDone: (value: T) => boolean,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let signalled = false;
    let wake: () => void = () => {
      signalled = true;
    };
    const subscriber = () => wake();
    let set = waiters.get(documentId);
    if (!set) waiters.set(documentId, (set = new Set()));
    set.add(subscriber);
    try {
      try {
        await listening();
      } catch (error) {
        options.log.warn(
          { err: error },
          'document status listener unavailable; waiting for the deadline only',
        );
      }
      let value = await check();
      while (!isDone(value) && !closed) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        if (!signalled) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, remaining);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        signalled = false;
        wake = () => {
          signalled = true;
        };
        value = await check();
      }
      return value;
    } finally {
      set.delete(subscriber);
      if (set.size === 0) waiters.delete(documentId);
    }
  }

  return {
    waitFor,
    /** Number of requests currently waiting (tests and metrics). */
    get waiting(): number {
      let count = 0;
      for (const set of waiters.values()) count += set.size;
      return count;
    },
    close: async () => {
      closed = true;
      for (const set of waiters.values()) for (const wake of set) wake();
      const connection = client;
      client = undefined;
      if (connection) await connection.end().catch(() => {});
    },
  };
}
