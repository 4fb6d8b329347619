import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { readEnvironment } from './read-environment.ts';

const ZEnv = z.object({ PORT: z.coerce.number().int().default(3000), DATABASE_URL: z.url() });

test('empty values take defaults; valid values are parsed', () => {
  assert.deepEqual(readEnvironment(ZEnv, { PORT: '', DATABASE_URL: 'postgresql://h/db' }), {
    PORT: 3000,
    DATABASE_URL: 'postgresql://h/db',
  });
  assert.equal(readEnvironment(ZEnv, { PORT: '8080', DATABASE_URL: 'postgresql://h/db' }).PORT, 8080);
});

test('a failure names the variable and never its value', () => {
  assert.throws(
    () => readEnvironment(ZEnv, { PORT: 'secret-not-a-port', DATABASE_URL: 'hunter2 is not a url' }),
    (error: Error) => {
      assert.match(error.message, /PORT, DATABASE_URL/);
      assert.doesNotMatch(error.message, /secret-not-a-port|hunter2/);
      return true;
    },
  );
});
