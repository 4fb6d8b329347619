import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeCpuTurn } from './take-cpu-turn.ts';

function busy(milliseconds: number): void {
  const until = performance.now() + milliseconds;
  while (performance.now() < until) {
    // CPU-bound on purpose: the step a turn stands for.
  }
}

test('one caller resumes per event-loop iteration: timers (and I/O) run between turns', async () => {
  const events: string[] = [];
  let remaining = 5;
  // A timer that keeps re-arming itself while turns are pending: it fires once per iteration at most.
  const tick = () => {
    events.push('timer');
    if (remaining > 0) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await Promise.all(
    Array.from({ length: 5 }, async (_, index) => {
      await takeCpuTurn();
      events.push(`turn ${index}`);
      busy(5); // longer than the timer's 1 ms, so the timer is due when the next iteration starts
      remaining -= 1;
    }),
  );
  const turns = events.flatMap((event, position) => (event.startsWith('turn') ? [position] : []));
  assert.deepEqual(
    turns.map((position) => events[position]),
    ['turn 0', 'turn 1', 'turn 2', 'turn 3', 'turn 4'],
    'in arrival order',
  );
  for (let index = 1; index < turns.length; index += 1) {
    assert.ok(
      events.slice(turns[index - 1]! + 1, turns[index]).includes('timer'),
      `a timer ran between turn ${index - 1} and turn ${index}: ${events.join(', ')}`,
    );
  }
});
