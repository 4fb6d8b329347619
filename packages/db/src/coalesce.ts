/**
 * Group commit for independent statements. The worker runs a fetch of jobs at once, and each job
 * issues the same statements at about the same moment (read the document, write its change): one
 * round trip, one plan and one commit per document is what PostgreSQL spent its CPU on. A
 * coalescer collects the calls made while the event loop is busy and hands them to `flush` as one
 * batch (one statement for all of them); calls made while `maxInFlight` batches are running wait
 * for the next one. Nothing waits on a timer: a call alone is flushed at the next turn of the loop.
 */
export type TCoalesced<TIn, TOut> = (item: TIn) => Promise<TOut>;

export type TCoalescerOptions = {
  /** At most this many items per batch (default 64). */
  maxBatch?: number;
  /** Batches running at once (default 2: one on the wire while the next fills). */
  maxInFlight?: number;
};

/**
 * `flush` answers each item of its batch, in order, with its own result or error: one item's
 * failure must not fail the others (see `settleEach`).
 */
export function createCoalescer<TIn, TOut>(
  flush: (items: TIn[]) => Promise<Array<PromiseSettledResult<TOut>>>,
  options: TCoalescerOptions = {},
): TCoalesced<TIn, TOut> {
  const maxBatch = options.maxBatch ?? 64;
  const maxInFlight = options.maxInFlight ?? 2;
  type TEntry = { item: TIn; resolve: (value: TOut) => void; reject: (reason: unknown) => void };
  let pending: TEntry[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = (): void => {
    if (scheduled || pending.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(run);
  };
  const run = (): void => {
    scheduled = false;
    while (pending.length > 0 && inFlight < maxInFlight) {
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(maxBatch);
      inFlight += 1;
      flush(batch.map((entry) => entry.item))
        .then(
          (results) => {
            batch.forEach((entry, index) => {
              const result = results[index];
              if (result === undefined)
                entry.reject(
                  new Error(`coalescer: flush answered ${results.length} of ${batch.length} items`),
                );
              else if (result.status === 'fulfilled') entry.resolve(result.value);
              else entry.reject(result.reason);
            });
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          schedule();
        });
    }
  };

  return (item) =>
    new Promise<TOut>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      schedule();
    });
}

/**
 * A `flush` for {@link createCoalescer} from an operation on a whole batch (`run` answers each item,
 * in order). Items with the same `keyOf` (a row two of them would write) never share a batch: the
 * repeats run alone, after it. A batch that throws is retried one item at a time, so an item's error
 * (a unique violation, a failed guard's follow-up) reaches only its caller and the others still apply.
 */
export function batchOrEach<TIn, TOut>(
  run: (items: TIn[]) => Promise<TOut[]>,
  keyOf?: (item: TIn) => string,
): (items: TIn[]) => Promise<Array<PromiseSettledResult<TOut>>> {
  const alone = async (item: TIn): Promise<TOut> => {
    const [result] = await run([item]);
    if (result === undefined) throw new Error('batchOrEach: the operation answered no result');
    return result;
  };
  return async (items) => {
    const seen = new Set<string>();
    const batch: number[] = [];
    const repeats: number[] = [];
    items.forEach((item, index) => {
      const key = keyOf?.(item);
      (key !== undefined && seen.has(key) ? repeats : batch).push(index);
      if (key !== undefined) seen.add(key);
    });
    const first = batch.map((index) => items[index] as TIn);
    let settled: Array<PromiseSettledResult<TOut>>;
    try {
      settled = (await run(first)).map((value) => ({ status: 'fulfilled', value }));
    } catch (error) {
      settled = first.length === 1 ? [{ status: 'rejected', reason: error }] : await settleEach(first, alone);
    }
    const results: Array<PromiseSettledResult<TOut>> = [];
    batch.forEach((index, position) => {
      results[index] = settled[position] ?? {
        status: 'rejected',
        reason: new Error('batchOrEach: the operation answered too few results'),
      };
    });
    for (const index of repeats)
      results[index] = (await settleEach([items[index] as TIn], alone))[0] as PromiseSettledResult<TOut>;
    return results;
  };
}

/** Runs `work` for each item on its own (the fallback of a batch statement that failed). */
export async function settleEach<TIn, TOut>(
  items: TIn[],
  work: (item: TIn) => Promise<TOut>,
): Promise<Array<PromiseSettledResult<TOut>>> {
  return Promise.allSettled(items.map((item) => work(item)));
}

/**
 * One coalescer per key object (a pool): created on first use, gone with the key. `create` runs
 * once per key.
 */
export function coalescerPerKey<TKey extends object, TIn, TOut>(
  create: (key: TKey) => TCoalesced<TIn, TOut>,
): (key: TKey) => TCoalesced<TIn, TOut> {
  const coalescers = new WeakMap<TKey, TCoalesced<TIn, TOut>>();
  return (key) => {
    let coalesced = coalescers.get(key);
    if (coalesced === undefined) {
      coalesced = create(key);
      coalescers.set(key, coalesced);
    }
    return coalesced;
  };
}
