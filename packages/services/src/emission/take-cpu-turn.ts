const waiting: Array<() => void> = [];
let isScheduled = false;

function runNextTurn(): void {
  isScheduled = false;
  const next = waiting.shift();
  // Scheduled before the turn's owner runs: an immediate queued now runs on the NEXT loop
  // iteration, after the poll phase has read whatever I/O arrived meanwhile.
  if (waiting.length > 0) scheduleTurn();
  next?.();
}

function scheduleTurn(): void {
  isScheduled = true;
  setImmediate(runNextTurn);
}

/**
 * Waits for this process's next CPU turn: at most ONE caller resumes per event-loop iteration,
 * in arrival order. Call it before a synchronous step that may take tens of milliseconds
 * (decoding and parsing a large body, validating a 1000-line document, building its XML, the XSD
 * check). Yielding with a bare `setImmediate` is not enough: every immediate queued in one
 * iteration runs in the same check phase, so four large requests would still block the loop
 * for the sum of their steps; taking turns bounds a block to one step, and `/healthz` (and every
 * other request's I/O) is served between turns.
 */
export function takeCpuTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!isScheduled) scheduleTurn();
  });
}
