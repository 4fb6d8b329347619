// Measures every bench takes the same way: percentiles of sorted samples and CPU time from /proc.
import { readdirSync, readFileSync } from 'node:fs';

/** The nearest-rank percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN
  );
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a `/proc/<pid>/stat` line. */
function cpuSecondsOfStat(stat: string): number {
  const fields = stat.split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by one process (NaN when it is gone). */
export function processCpuSeconds(pid: number | undefined): number {
  try {
    return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of the PostgreSQL server's processes alive now (backends of pools that live through the run). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) total += cpuSecondsOfStat(stat);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
