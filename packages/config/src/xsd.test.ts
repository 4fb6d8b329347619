import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFFICIAL_XSD_DIRECTORY } from './paths.ts';
import { loadXsdValidators } from './xsd.ts';

test('config/xsd is the published set: every schema matches its SHA-256 in SHA256SUMS, none missing or extra', () => {
  const sums = new Map(
    readFileSync(join(OFFICIAL_XSD_DIRECTORY, 'SHA256SUMS'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
        assert.ok(match, `malformed line in SHA256SUMS: ${line}`);
        return [match[2] as string, match[1] as string];
      }),
  );
  const schemas = readdirSync(OFFICIAL_XSD_DIRECTORY).filter((name) => name.endsWith('.xsd'));
  assert.deepEqual([...sums.keys()].sort(), schemas.sort());
  for (const name of schemas) {
    const digest = createHash('sha256')
      .update(readFileSync(join(OFFICIAL_XSD_DIRECTORY, name)))
      .digest('hex');
    assert.equal(digest, sums.get(name), `${name} differs from the published schema`);
  }
  assert.ok(schemas.length >= 15, `only ${schemas.length} schemas`);
});

test('loadXsdValidators compiles the official set and knows every e-CF type', async () => {
  const validators = await loadXsdValidators('config/xsd');
  try {
    for (const kind of ['ECF31', 'ECF32', 'ECF47', 'RFCE', 'ANECF', 'ACECF', 'ARECF'])
      assert.ok((validators.kinds as readonly string[]).includes(kind), kind);
  } finally {
    validators.dispose();
  }
});

test('a directory without the ten e-CF schemas stops the start, naming what is missing', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'xsd-'));
  try {
    writeFileSync(
      join(directory, 'ARECF v1.0.xsd'),
      readFileSync(join(OFFICIAL_XSD_DIRECTORY, 'ARECF v1.0.xsd')),
    );
    await assert.rejects(loadXsdValidators(directory), /lacks the e-CF schemas ECF31, ECF32/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
