/**
 * The worker's end-to-end test set-up, shared by the pipeline tests: a migrated database of its
 * own, the tax authority simulator on another database, the real worker (pg-boss) talking to it,
 * tenants with stored certificates, and documents stored the way the API stores them.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { pino } from 'pino';
import { JOB_NAMES, seedTenant, type Document, type Environment } from '@ecf/db';
import { createProducerQueue } from '@ecf/db/job-queue';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, type TXsdValidators } from '@ecf/fiscal-core';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator, type TSimulatorOptions } from '@ecf/taxauth-sim';
import { createWorker, type TWorkerOptions } from '../src/worker.ts';

export const TEST_XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;

type THarnessOptions = {
  processingDelayMs: number;
  directory?: TSimulatorOptions['directory'];
  /** Check signed XML against the XSDs (the worker's production set-up); off keeps a job's event list minimal. */
  xsd?: boolean;
  /** Further worker options (queue overrides, e-mail, polling). */
  worker?: Partial<
    Omit<
      TWorkerOptions,
      'databaseUrl' | 'database' | 'log' | 'certificateKeyring' | 'taxauthClientFor' | 'xsdValidators'
    >
  >;
};

export type TPipelineHarness = Awaited<ReturnType<typeof openPipelineHarness>>;

export async function openPipelineHarness(options: THarnessOptions) {
  const context = await openTestDatabase();
  const simulatorDatabase = await createTestDatabase({ migrated: false });
  const simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: options.processingDelayMs,
    port: 0,
    ...(options.directory ? { directory: options.directory } : {}),
  });
  const xsdValidators: TXsdValidators | undefined = options.xsd
    ? await loadXsdValidators(TEST_XSD_DIRECTORY)
    : undefined;
  const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
  const worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    certificateKeyring: keyring,
    ...(xsdValidators ? { xsdValidators } : {}),
    taxauthClientFor: createTaxauthClients({
      baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
      timeoutMs: 2000,
    }),
    ...options.worker,
  });
  await worker.start();
  const { database } = context;
  // Jobs sent as the API sends them (a producer of its own, in the caller's transaction when given).
  const producer = createProducerQueue({ databaseUrl: context.url, queues: JOB_NAMES, onError: () => {} });

  return {
    database,
    simulator,
    worker,
    /** The keyring the tenants' certificates are stored with (for use-cases that sign outside jobs). */
    keyring,
    enqueue: producer.enqueue,
    /** A tenant with an active generated certificate (buyer e-mail on in the given environments). */
    async tenantWithCertificate(buyerEmailEnvironments: Environment[] = [], rnc?: string) {
      const tenant = await seedTenant(database, rnc === undefined ? {} : { rnc });
      if (buyerEmailEnvironments.length > 0)
        await database.tenant.update({ where: { id: tenant.id }, data: { buyerEmailEnvironments } });
      const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante de prueba' });
      await storeTenantCertificate({
        database,
        keyring,
        tenantId: tenant.id,
        p12: certificate.p12,
        password: certificate.password,
      });
      return tenant;
    },
    /**
     * A simplified E31 (one line, RD$5,310.00) stored queued for signing as the API stores it (the
     * body text); `buyer` replaces the default buyer. The caller starts the pipeline.
     */
    async seedQueuedE31(
      tenant: { id: string; rnc: string },
      buyer: { rnc: string; name: string; email?: string } = {
        rnc: '101672919',
        name: 'Ferretería Los Pinos SRL',
      },
    ): Promise<Document> {
      const encf = `E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`;
      const body = {
        type: 'E31',
        encf,
        sequenceExpirationDate: '31-12-2027',
        issueDate: '2026-04-01T10:15:00-04:00',
        issuer: {
          rnc: tenant.rnc,
          legalName: 'Distribuidora Caribe Digital SRL',
          address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
        },
        buyer,
        paymentType: 'card',
        incomeType: '01',
        lines: [
          {
            name: 'Cemento gris 42.5 kg',
            quantity: 10,
            unitPrice: '450.00',
            itbisRate: 18,
            itemKind: 'good',
          },
        ],
      };
      return database.document.create({
        data: {
          tenantId: tenant.id,
          environment: 'TesteCF',
          type: 31,
          encf,
          format: 'simplified',
          issueDate: new Date('2026-04-01'),
          totalAmount: '5310.00',
          buyerRnc: buyer.rnc,
          submittedPayload: JSON.stringify(body),
          submittedAt: new Date('2026-04-01T14:15:00Z'),
        },
      });
    },
    async close() {
      await producer.close();
      await worker.stop();
      await simulator.close();
      await simulatorDatabase.drop();
      xsdValidators?.dispose();
      await context.close();
    },
  };
}

/** Reads until `done` holds or the time is up; returns the last value read (the caller asserts on it). */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
