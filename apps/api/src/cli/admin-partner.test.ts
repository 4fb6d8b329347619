// The admin CLI's Partner commands: a Partner, its key shown once, an origin, plan and payment, a
// partner user, and the taxpayer registry import.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTestDatabase } from '@ecf/db/testing';
import { hashPartnerKey, listOfficialSets, lookUpTaxpayer } from '@ecf/services';
import { runAdminHere, type TAdminResult } from '../../test/admin-cli.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let scratch: string;
before(async () => {
  context = await openTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'ecf-admin-partner-'));
});
after(async () => {
  await context.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The CLI with `--json`, in this process (test/admin-cli.ts; admin.test.ts runs it as a process). */
function admin(...args: string[]): Promise<TAdminResult> {
  return runAdminHere({ ...process.env, DATABASE_URL: context.url }, [...args, '--json']);
}

test('partner create, key create (printed once, SHA-256 stored), origin, update, user', async () => {
  const created = await admin(
    'partner',
    'create',
    '--name',
    'ERP Caribe',
    '--billing-url',
    'https://pay.example.com',
  );
  assert.equal(created.code, 0, created.stderr);
  const partner = JSON.parse(created.stdout) as { id: string; paidStatus: string };
  assert.equal(partner.paidStatus, 'unpaid');
  const key = await admin(
    'partner',
    'key',
    'create',
    '--partner',
    partner.id,
    '--name',
    'prod',
    '--profile',
    'runtime',
  );
  const { key: clear, profile } = JSON.parse(key.stdout) as { key: string; profile: string };
  assert.equal(profile, 'runtime');
  const stored = await context.database.partnerKey.findFirstOrThrow({ where: { partnerId: partner.id } });
  assert.equal(stored.hash, hashPartnerKey(clear));
  assert.ok(!JSON.stringify(stored).includes(clear));
  const origin = await admin(
    'partner',
    'origin',
    'add',
    '--partner',
    partner.id,
    '--origin',
    'https://erp.example.com',
  );
  assert.equal(origin.code, 0, origin.stderr);
  const badOrigin = await admin(
    'partner',
    'origin',
    'add',
    '--partner',
    partner.id,
    '--origin',
    'http://erp.example.com',
  );
  assert.equal(badOrigin.code, 1);
  assert.match(badOrigin.stderr, /INVALID_BROWSER_ORIGIN/);
  // A wildcard matches many origins: refused, and nothing is stored.
  for (const wildcard of ['https://*.example.com', 'https://erp_1.example.com']) {
    const refused = await admin('partner', 'origin', 'add', '--partner', partner.id, '--origin', wildcard);
    assert.equal(refused.code, 1, wildcard);
    assert.match(refused.stderr, /INVALID_BROWSER_ORIGIN/);
  }
  const origins = await context.database.partnerBrowserOrigin.findMany({ where: { partnerId: partner.id } });
  assert.deepEqual(
    origins.map((row) => row.origin),
    ['https://erp.example.com'],
  );
  const updated = await admin(
    'partner',
    'update',
    '--partner',
    partner.id,
    '--paid-status',
    'overdue',
    '--plan',
    'growth',
  );
  const after = JSON.parse(updated.stdout) as {
    paidStatus: string;
    plan: string;
    overdueSince: string | null;
  };
  assert.deepEqual([after.paidStatus, after.plan, after.overdueSince !== null], ['overdue', 'growth', true]);
  const badProfile = await admin(
    'partner',
    'key',
    'create',
    '--partner',
    partner.id,
    '--name',
    'x',
    '--profile',
    'root',
  );
  assert.equal(badProfile.code, 2);
  const missingUser = await admin(
    'partner',
    'user',
    'add',
    '--partner',
    partner.id,
    '--email',
    'nadie@example.com',
    '--role',
    'partner_admin',
  );
  assert.equal(missingUser.code, 1);
});

test('official-set load, list, retire: the workbook read and checked, retired out of the catalogue', async () => {
  const workbook = fileURLToPath(
    import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx'),
  );
  const notWorkbook = path.join(scratch, 'no-es-un-libro.xlsx');
  await writeFile(notWorkbook, 'not a workbook');
  const refused = await admin('official-set', 'load', '--ref', 'x', '--name', 'X', '--file', notWorkbook);
  assert.equal(refused.code, 2, refused.stderr);
  const problems = (
    JSON.parse(refused.stderr) as { error: { problems: Array<{ option: string; code: string }> } }
  ).error.problems;
  assert.deepEqual(
    problems.map((problem) => [problem.option, problem.code]),
    [['--file', 'WORKBOOK_CORRUPT']],
  );
  const loaded = await admin(
    'official-set',
    'load',
    '--ref',
    'dgii-2026',
    '--name',
    'Set DGII 2026',
    '--description',
    'el modelo',
    '--file',
    workbook,
  );
  assert.equal(loaded.code, 0, loaded.stderr);
  assert.deepEqual(
    (({ ref, issuerRnc, rows, retiredAt }) => ({ ref, issuerRnc, rows, retiredAt }))(
      JSON.parse(loaded.stdout) as Record<string, unknown>,
    ),
    { ref: 'dgii-2026', issuerRnc: '132641566', rows: 29, retiredAt: null },
  );
  const retired = await admin('official-set', 'retire', '--ref', 'dgii-2026');
  assert.equal(retired.code, 0, retired.stderr);
  assert.equal((JSON.parse(retired.stdout) as { openCases: number }).openCases, 0);
  const list = await admin('official-set', 'list');
  const sets = JSON.parse(list.stdout) as Array<{ ref: string; retiredAt: string | null }>;
  assert.deepEqual(
    sets.map((set) => [set.ref, set.retiredAt !== null]),
    [['dgii-2026', true]],
  );
  assert.deepEqual(await listOfficialSets({ database: context.database }), { items: [], defaultRef: null });
});

test('registry import: the file loaded, the figures printed', async () => {
  const file = path.join(scratch, 'DGII_RNC.TXT');
  await writeFile(
    file,
    Buffer.from(
      '101000001|FERRETERIA CENTRAL SRL|CENTRAL|VENTA|||||01/01/2000|ACTIVO|NORMAL\r\nnot a line\r\n',
      'latin1',
    ),
  );
  const imported = await admin('registry', 'import', '--file', file);
  assert.equal(imported.code, 0, imported.stderr);
  const report = JSON.parse(imported.stdout) as { rows: number; skipped: number };
  assert.deepEqual([report.rows, report.skipped], [1, 1]);
  const found = await lookUpTaxpayer({ database: context.database, rnc: '101000001' });
  assert.equal(found.loaded && found.taxpayer?.status, 'ACTIVO');
});
