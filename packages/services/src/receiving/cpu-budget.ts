/**
 * CPU spent on the public reception routes, per sender (issue 25; docs/receiving.md "Limits"): the
 * expensive steps of a delivery (decoding and pre-scan, the routing fields, the XSD validation, the
 * signature verification, signing the ARECF) are synchronous, so the wall time around each one is
 * the CPU it took on this thread. A use-case adds it to the request's {@link TCpuMeter}; the route
 * charges the sender's {@link createSenderCpuBudget} bucket with it, and refuses a sender whose
 * bucket is empty (429 with Retry-After) before its body is read.
 */

/** Milliseconds of CPU a request spent in the metered steps. */
export type TCpuMeter = { spentMs: number };

/** Runs `step` (synchronous) and adds its duration to `meter`, thrown or returned. */
export function metered<T>(meter: TCpuMeter | undefined, step: () => T): T {
  if (meter === undefined) return step();
  const started = performance.now();
  try {
    return step();
  } finally {
    meter.spentMs += performance.now() - started;
  }
}

export type TSenderCpuBudgetOptions = {
  /** CPU milliseconds a sender regains per minute (the sustained rate). */
  msPerMinute: number;
  /** The most a sender can hold (and spend at once); a new sender starts full. */
  burstMs: number;
  /** Senders remembered (the idle ones, back to full, are dropped first, then the oldest). */
  maxSenders?: number;
};

/**
 * A token bucket of CPU milliseconds per sender (source address), in this process's memory.
 * `wait` says whether a sender may be served now (undefined) or how many seconds until it may;
 * `charge` takes what a request spent (the balance may go below zero: the request is never cut,
 * the sender waits longer).
 */
export function createSenderCpuBudget(options: TSenderCpuBudgetOptions) {
  const buckets = new Map<string, { balance: number; at: number }>();
  const maxSenders = options.maxSenders ?? 50_000;
  const perMs = options.msPerMinute / 60_000;

  function refilled(address: string, nowMs: number): { balance: number; at: number } {
    const bucket = buckets.get(address);
    if (bucket === undefined) return { balance: options.burstMs, at: nowMs };
    const balance = Math.min(options.burstMs, bucket.balance + Math.max(0, nowMs - bucket.at) * perMs);
    return { balance, at: nowMs };
  }

  return {
    /** Undefined when the sender may be served, else the seconds to wait (at least 1). */
    wait(address: string, nowMs: number): number | undefined {
      const { balance } = refilled(address, nowMs);
      if (balance > 0) return undefined;
      return Math.max(1, Math.ceil((-balance + 1) / perMs / 1000));
    },
    /** Takes `spentMs` from the sender's bucket. */
    charge(address: string, spentMs: number, nowMs: number): void {
      const bucket = refilled(address, nowMs);
      bucket.balance -= spentMs;
      buckets.delete(address);
      if (buckets.size >= maxSenders) {
        for (const [key, value] of buckets)
          if (value.balance + (nowMs - value.at) * perMs >= options.burstMs) buckets.delete(key);
        while (buckets.size >= maxSenders) buckets.delete(buckets.keys().next().value as string);
      }
      buckets.set(address, bucket);
    },
    /** The sender's balance now (tests, logs). */
    balance(address: string, nowMs: number): number {
      return refilled(address, nowMs).balance;
    },
  };
}

export type TSenderCpuBudget = ReturnType<typeof createSenderCpuBudget>;
