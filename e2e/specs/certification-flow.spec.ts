// Certification from a new tenant to production (issue 19), against the whole stack: the tax
// authority simulator plays the certification portal (its admin routes are what a person does at
// the tax authority's portal), our API and worker do the rest. The data tests are rejected once (an
// injected rejection: the tax authority restarts them and issues a new workbook), restarted and
// passed; then the commercial approval tests, the simulation, the attestations, the reception tests
// (the simulator calls our CerteCF reception routes) and the sworn declaration. The tax authority
// then lists the account in its eCF directory, and the service activates production by itself: an
// e-CF is accepted in eCF without anyone touching the database. The data run's evidence ZIP is
// opened and its manifest checked against the files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { seedApiKey, seedTenant } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { closeDatabase, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

after(async () => {
  await closeDatabase();
});

type TJson = Record<string, unknown>;

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test(
  'a new tenant certified end to end: one rejection restarts the data tests, then every step, then production is active',
  { timeout: 600_000 },
  async () => {
    const { apiUrl, simulatorUrl, secrets } = stack();
    const database = stackDatabase();
    const tenant = await seedTenant(database, { legalName: 'Certificadora Dominicana SRL' });
    const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Representante e-CF' });
    await storeTenantCertificate({
      database,
      keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
      tenantId: tenant.id,
      p12: certificate.p12,
      password: certificate.password,
    });
    const { key: certeKey } = await seedApiKey(database, {
      tenantId: tenant.id,
      environment: 'CerteCF',
      scopes: ['tenant:admin'],
    });
    const { key: productionKey } = await seedApiKey(database, {
      tenantId: tenant.id,
      environment: 'eCF',
      scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
    });

    const api = async (method: string, path: string, key: string, body?: unknown) => {
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as TJson };
    };
    const portal = `${simulatorUrl}/_sim/certification/${tenant.rnc}`;
    const sim = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${portal}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const type = response.headers.get('content-type') ?? '';
      return {
        status: response.status,
        body: type.includes('json') ? ((await response.json()) as TJson) : {},
        bytes: type.includes('spreadsheet') ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0),
      };
    };
    const workbook = async (kind: 'ecf' | 'approvals') => {
      const response = await sim('GET', `/workbooks/${kind}`);
      assert.equal(response.status, 200);
      return response.bytes.toString('base64');
    };
    const runUntilOver = async (runId: string) =>
      waitFor(`run ${runId}`, async () => {
        const { body } = await api('GET', `/CerteCF/certificacion/${runId}`, certeKey);
        return ['succeeded', 'failed', 'stopped'].includes(String(body['state'])) ? body : undefined;
      }).catch(async (error: unknown) => {
        // What the run and its jobs look like, for the failure message.
        const { body } = await api('GET', `/CerteCF/certificacion/${runId}`, certeKey);
        const jobs = await database.$queryRaw<Array<{ name: string; state: string; count: bigint }>>`
          SELECT name, state::text AS state, count(*) AS count FROM pgboss.job GROUP BY 1, 2 ORDER BY 1, 2`;
        const documents = await database.$queryRaw<Array<{ status: string; error: unknown }>>`
          SELECT status::text AS status, last_error AS error FROM documents WHERE tenant_id = ${tenant.id}::uuid LIMIT 5`;
        throw new Error(
          `${String(error)}: ${JSON.stringify({ state: body['state'], totals: body['totals'] })} jobs ${JSON.stringify(jobs.map((job) => [job.name, job.state, Number(job.count)]))} documents ${JSON.stringify(documents)}`,
        );
      });
    const caseNow = async () => (await api('GET', '/CerteCF/certificacion', certeKey)).body;
    const attest = async (step: string) => {
      const response = await api('POST', '/CerteCF/certificacion/atestaciones', certeKey, {
        step,
        notes: `${step} hecho en el portal`,
      });
      assert.equal(response.status, 201, JSON.stringify(response.body));
    };

    // The tax authority registers the application and issues the workbooks for this RNC.
    assert.equal((await sim('POST', '', { legalName: tenant.legalName })).status, 201);
    // Production is closed before certification.
    assert.equal((await api('POST', '/eCF/documentos-ecf', productionKey, {})).status, 423);

    // Data tests, first attempt: the tax authority rejects one document.
    const fault = await fetch(`${simulatorUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'certecf', service: 'recepcion', fault: 'reject', count: 1 }),
    });
    assert.equal(fault.status, 201);
    const first = await api('POST', '/CerteCF/certificacion', certeKey, {
      workbookBase64: await workbook('ecf'),
    });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const failed = await runUntilOver(String(first.body['runId']));
    assert.equal(failed['state'], 'failed');
    assert.equal((failed['failure'] as TJson)['code'], 'TAXAUTH_REJECTED');
    assert.equal((await caseNow())['state'], 'failed');
    // The tax authority restarted its data tests: a new workbook, other eNCFs.
    const simAfterRejection = (await sim('GET', '')).body;
    assert.ok(((simAfterRejection['dataTests'] as TJson)['resets'] as number) >= 1);
    const restart = await api('POST', '/CerteCF/certificacion/reiniciar', certeKey, { part: 'data' });
    assert.equal(restart.status, 200);
    assert.equal(restart.body['state'], 'in_progress');

    // Data tests again, with the new workbook: every row accepted.
    const second = await api('POST', '/CerteCF/certificacion', certeKey, {
      workbookBase64: await workbook('ecf'),
    });
    assert.equal(second.status, 202, JSON.stringify(second.body));
    const passed = await runUntilOver(String(second.body['runId']));
    assert.equal(passed['state'], 'succeeded', JSON.stringify(passed['failure']));
    assert.equal((await caseNow())['step'], 'data_tests_commercial_approval');

    // The evidence of the data run: every file of the manifest is in the ZIP with its SHA-256.
    const evidence = await api(
      'GET',
      `/CerteCF/certificacion/${String(second.body['runId'])}/evidencia`,
      certeKey,
    );
    assert.equal(evidence.status, 200);
    const zipBytes = Buffer.from(String(evidence.body['content']), 'base64');
    assert.equal(createHash('sha256').update(zipBytes).digest('hex'), evidence.body['sha256']);
    const files = unzipSync(zipBytes);
    const manifest = JSON.parse(Buffer.from(files['manifest.json'] ?? []).toString('utf8')) as {
      files: Array<{ name: string; sha256: string; size: number }>;
    };
    for (const file of manifest.files) {
      const content = files[file.name];
      assert.ok(content, file.name);
      assert.equal(createHash('sha256').update(content).digest('hex'), file.sha256, file.name);
    }
    const names = manifest.files.map((file) => file.name);
    assert.equal(names.filter((name) => name.startsWith('xml/')).length, 25);
    assert.equal(names.filter((name) => name.startsWith('rfce/')).length, 4);
    assert.equal(names.filter((name) => name.startsWith('pdf/')).length, 25);

    // Commercial approval tests: the tax authority's ACEECF_Generadas for this buyer, one by one.
    const approvals = await api('POST', '/CerteCF/certificacion/aprobaciones-comerciales', certeKey, {
      workbookBase64: await workbook('approvals'),
    });
    assert.equal(approvals.status, 202, JSON.stringify(approvals.body));
    const sent = await waitFor('the commercial approvals', async () => {
      const { body } = await api('GET', '/CerteCF/certificacion/aprobaciones-comerciales', certeKey);
      const state = (body['commercialApprovals'] as TJson | null)?.['state'];
      return state === 'succeeded' || state === 'failed' ? (body['commercialApprovals'] as TJson) : undefined;
    });
    assert.equal(sent['state'], 'succeeded', JSON.stringify(sent['failure']));

    // Simulation: the tax authority's model with new eNCFs.
    const simulation = await api('POST', '/CerteCF/certificacion', certeKey, { taxauthModel: true });
    assert.equal(simulation.status, 202, JSON.stringify(simulation.body));
    assert.equal(simulation.body['part'], 'simulation');
    const simulated = await runUntilOver(String(simulation.body['runId']));
    assert.equal(simulated['state'], 'succeeded', JSON.stringify(simulated['failure']));

    // Printed representations: uploaded and approved at the tax authority's portal.
    for (const step of ['simulation_printed_representation', 'printed_representation_validation']) {
      assert.equal((await sim('POST', '/attestations', { step, outcome: 'approved' })).status, 201);
      await attest(step);
    }
    // Test URLs, then the tax authority's reception tests call our CerteCF reception routes.
    assert.equal(
      (
        await sim('PUT', '/urls', {
          kind: 'test',
          receptionUrl: `${apiUrl}/CerteCF`,
          commercialApprovalUrl: `${apiUrl}/CerteCF`,
        })
      ).status,
      200,
    );
    for (const kind of ['ecf', 'commercial_approval']) {
      const tested = await sim('POST', '/reception-tests', { kind });
      assert.equal(tested.status, 200);
      assert.equal(tested.body['ok'], true, JSON.stringify(tested.body));
    }
    // The service saw them arrive: the reception steps complete by themselves.
    await waitFor('the reception steps', async () => {
      const view = await caseNow();
      const steps = view['steps'] as Array<{ step: string; state: string }>;
      return steps.find((step) => step.step === 'reception_commercial_approval')?.state === 'done'
        ? view
        : undefined;
    });

    // Production URLs and the sworn declaration.
    assert.equal(
      (
        await sim('PUT', '/urls', {
          kind: 'production',
          receptionUrl: `${apiUrl}/eCF`,
          commercialApprovalUrl: `${apiUrl}/eCF`,
        })
      ).status,
      200,
    );
    await attest('production_service_urls');
    assert.equal(
      (await sim('POST', '/attestations', { step: 'sworn_declaration', outcome: 'approved' })).status,
      201,
    );
    assert.equal((await sim('GET', '')).body['step'], 'finished');
    await attest('sworn_declaration');

    // The tax authority lists the account in its eCF directory: the service activates production.
    const approved = await waitFor('production active', async () => {
      const view = await caseNow();
      return (view['production'] as TJson)['state'] === 'active' ? view : undefined;
    });
    assert.equal(approved['state'], 'approved');
    assert.equal(approved['step'], 'finished');
    assert.ok((approved['steps'] as Array<{ state: string }>).every((step) => step.state === 'done'));

    // An e-CF in eCF now: accepted for emission (202), not 423.
    const issued = await api('POST', '/eCF/documentos-ecf', productionKey, {
      type: 'E31',
      encf: 'E310000000001',
      sequenceExpirationDate: '31-12-2027',
      issueDate: new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10),
      issuer: { rnc: tenant.rnc, legalName: tenant.legalName, address: 'Av. 27 de Febrero 1, Santo Domingo' },
      buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
      paymentType: 'card',
      incomeType: '01',
      lines: [
        { name: 'Servicio de prueba', quantity: 1, unitPrice: '100.00', itbisRate: 18, itemKind: 'service' },
      ],
    });
    assert.equal(issued.status, 202, JSON.stringify(issued.body));
  },
);
