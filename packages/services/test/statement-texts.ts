// Support of the group-commit tests: the statements a piece of work sent on the pool, by text
// (`pool.query` only: a transaction's statements go through its own connection).
import type { TSqlPool } from '@ecf/db';

export async function statementTexts<T>(
  pool: TSqlPool,
  work: () => Promise<T>,
): Promise<{ result: T; texts: string[] }> {
  const original = pool.query.bind(pool);
  const texts: string[] = [];
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const [config] = args;
    texts.push(typeof config === 'string' ? config : (config as { text: string }).text);
    return (original as (...all: unknown[]) => unknown)(...args);
  };
  try {
    return { result: await work(), texts };
  } finally {
    (pool as { query: unknown }).query = original;
  }
}
