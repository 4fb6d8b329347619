import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchOrEach, coalescerPerKey, createCoalescer, settleEach } from './coalesce.ts';

/** A flush that records its batches and answers each item doubled, after `delayMs`. */
function recordingFlush(delayMs = 5) {
  const batches: number[][] = [];
  let running = 0;
  let maxRunning = 0;
  const flush = async (items: number[]): Promise<Array<PromiseSettledResult<number>>> => {
    batches.push(items);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    running -= 1;
    return items.map((item) => ({ status: 'fulfilled', value: item * 2 }));
  };
  return { flush, batches, maxRunning: () => maxRunning };
}

test('calls made in the same turn of the event loop go to one flush, each answered with its own result', async () => {
  const recording = recordingFlush();
  const double = createCoalescer(recording.flush);
  const results = await Promise.all([1, 2, 3, 4, 5].map((item) => double(item)));
  assert.deepEqual(results, [2, 4, 6, 8, 10]);
  assert.deepEqual(recording.batches, [[1, 2, 3, 4, 5]]);
});

test('a call alone is flushed at once, without waiting for company', async () => {
  const recording = recordingFlush(0);
  const double = createCoalescer(recording.flush);
  const started = performance.now();
  assert.equal(await double(21), 42);
  assert.ok(performance.now() - started < 50);
  assert.deepEqual(recording.batches, [[21]]);
});

test('batches hold at most maxBatch items and at most maxInFlight run at once; later calls wait for the next batch', async () => {
  const recording = recordingFlush(10);
  const double = createCoalescer(recording.flush, { maxBatch: 3, maxInFlight: 2 });
  const results = await Promise.all(Array.from({ length: 10 }, (_, index) => double(index)));
  assert.deepEqual(
    results,
    Array.from({ length: 10 }, (_, index) => index * 2),
  );
  assert.deepEqual(
    recording.batches.flat(),
    Array.from({ length: 10 }, (_, index) => index),
    'each item flushed once, in call order',
  );
  assert.ok(recording.batches.every((batch) => batch.length <= 3));
  assert.equal(recording.maxRunning(), 2);

  // Calls made while two batches run are gathered into the next one.
  const late = recordingFlush(20);
  const lateDouble = createCoalescer(late.flush, { maxInFlight: 1 });
  const first = lateDouble(1);
  await new Promise((resolve) => setImmediate(resolve));
  const waiting = [lateDouble(2), lateDouble(3), lateDouble(4)];
  await Promise.all([first, ...waiting]);
  assert.deepEqual(late.batches, [[1], [2, 3, 4]]);
});

test("one item's failure reaches only its caller; a flush that throws fails its whole batch, and the next batch still runs", async () => {
  const picky = createCoalescer<number, number>(async (items) =>
    items.map((item) =>
      item === 3
        ? { status: 'rejected', reason: new Error('three is refused') }
        : { status: 'fulfilled', value: item },
    ),
  );
  const settled = await Promise.allSettled([1, 2, 3, 4].map((item) => picky(item)));
  assert.deepEqual(
    settled.map((result) => result.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((settled[2] as PromiseRejectedResult).reason), /three is refused/);

  let calls = 0;
  const flaky = createCoalescer<number, number>(async (items) => {
    calls += 1;
    if (calls === 1) throw new Error('connection lost');
    return items.map((item) => ({ status: 'fulfilled', value: item }));
  });
  const failed = await Promise.allSettled([flaky(1), flaky(2)]);
  assert.deepEqual(
    failed.map((result) => result.status),
    ['rejected', 'rejected'],
  );
  assert.equal(await flaky(3), 3);

  const short = createCoalescer<number, number>(async () => [{ status: 'fulfilled', value: 1 }]);
  const answers = await Promise.allSettled([short(1), short(2)]);
  assert.equal(answers[0]?.status, 'fulfilled');
  assert.equal(answers[1]?.status, 'rejected', 'an item the flush did not answer is an error, never a hang');
});

test('settleEach runs each item alone; coalescerPerKey keeps one coalescer per key', async () => {
  const settled = await settleEach([1, 2, 3], async (item) => {
    if (item === 2) throw new Error('two');
    return item;
  });
  assert.deepEqual(
    settled.map((result) => result.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  let created = 0;
  const perKey = coalescerPerKey((key: { name: string }) => {
    created += 1;
    return createCoalescer<number, string>(async (items) =>
      items.map((item) => ({ status: 'fulfilled', value: `${key.name}${item}` })),
    );
  });
  const a = { name: 'a' };
  const b = { name: 'b' };
  assert.deepEqual(await Promise.all([perKey(a)(1), perKey(b)(2), perKey(a)(3)]), ['a1', 'b2', 'a3']);
  assert.equal(created, 2);
});

test('batchOrEach: one run for the batch; repeats of a key run alone after it; a failed batch is retried item by item', async () => {
  const runs: string[][] = [];
  const flush = batchOrEach(
    async (items: string[]) => {
      runs.push(items);
      if (items.length > 1 && items.includes('bad')) throw new Error('the batch failed');
      if (items[0] === 'bad') throw new Error('bad item');
      return items.map((item) => item.toUpperCase());
    },
    (item) => item,
  );
  const settled = await flush(['a', 'b', 'a', 'c']);
  assert.deepEqual(
    settled.map((result) => (result.status === 'fulfilled' ? result.value : 'rejected')),
    ['A', 'B', 'A', 'C'],
  );
  assert.deepEqual(runs, [['a', 'b', 'c'], ['a']], 'the repeated key ran alone, after the batch');

  runs.length = 0;
  const mixed = await flush(['x', 'bad', 'y']);
  assert.deepEqual(
    mixed.map((result) => result.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((mixed[1] as PromiseRejectedResult).reason), /bad item/);
  assert.equal(runs.length, 4, 'the batch, then each of its three items alone');
});
