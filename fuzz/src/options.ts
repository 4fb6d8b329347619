/**
 * The fuzzer's command line: `--seed S` (default FUZZ_SEED, else the day's date as YYYYMMDD, so a
 * CI run of one day replays with the same seed), `--runs N` (cases per kind per operation;
 * CI default 3), `--only TEXT` (operations and procedures whose name contains TEXT), `--verbose`
 * (the answers' statuses per operation and procedure), `--trace` (every case and its answer), `--limit N` (findings printed in full).
 */
export type TFuzzOptions = {
  seed: number;
  runs: number;
  only?: string;
  limit: number;
  verbose: boolean;
  trace: boolean;
};

export function readOptions(
  argv: readonly string[],
  environment: Record<string, string | undefined>,
): TFuzzOptions {
  const valueOf = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? undefined : argv[index + 1];
  };
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const seed = Number(valueOf('seed') ?? environment['FUZZ_SEED'] ?? today);
  const runs = Number(valueOf('runs') ?? environment['FUZZ_RUNS'] ?? 3);
  if (!Number.isSafeInteger(seed)) throw new Error('--seed must be an integer');
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  const only = valueOf('only');
  return {
    seed,
    runs,
    limit: Number(valueOf('limit') ?? 40),
    verbose: argv.includes('--verbose') || argv.includes('--trace'),
    trace: argv.includes('--trace'),
    ...(only ? { only } : {}),
  };
}

/** The seed of one operation or procedure: the run's seed mixed with a hash of its name. */
export function seedOf(seed: number, hash: number): number {
  return (Math.imul(seed ^ hash, 0x9e3779b1) >>> 0) % 2_147_483_647;
}

/** A string hash (FNV-1a): each operation's and procedure's seed derives from its name. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
