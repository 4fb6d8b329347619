import { CERTIFICATION_STEPS } from '@ecf/contract';
/**
 * THE ROLE × PROCEDURE MATRIX: every procedure of the portal, called by every kind of caller, with
 * a valid input, against the real database. One table (ROWS) lists each procedure with the access
 * it must have; the expected outcome of each cell comes from that access and the permission table
 * of @ecf/services (CAPABILITIES, SUPPORT_READS, SUPPORT_ACTIONS), and one test is generated per cell.
 * A procedure missing from the table fails the first test.
 *
 * Adding a procedure (a later page): add ONE row: its dotted path, its access
 * (`public` | `authed` | `{ tenant: capability }` | `{ support: capability }`), and `input(world, role)`
 * returning a VALID input for that caller (seed what it needs in `world`: each cell gets a fresh
 * world, so mutations do not disturb each other). When a role must get something else than the
 * access implies (a business rule, not a permission), say so in `except` with the reason.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { seedApiKey, seedTenant } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  CAPABILITIES,
  createWebhookEndpoint,
  sendAnnulment,
  sendTestWebhook,
  storeTenantCertificate,
  SUPPORT_ACTIONS,
  SUPPORT_READS,
  addBrowserOrigin,
  createPartnerKey,
  createPartnerWebhookEndpoint,
  hasPartnerCapability,
  sendPartnerTestWebhook,
  type TCapability,
  type TPartnerCapability,
} from '@ecf/services';
import { appRouter } from './root.ts';
import { seedIssuedDocument, validTryItJson } from '../../test/document-fixtures.ts';
import { seedReceivedWithApproval } from '../../test/commercial-approval-seed.ts';
import {
  claimRnc,
  MODEL_APPROVALS_RNC,
  MODEL_SET_RNC,
  modelWorkbookBase64,
  seedIssuedRun,
  seedOpenCase,
  seedSigningCertificate as seedCertificationCertificate,
} from '../../test/certification-seed.ts';
import { seedInbound } from '@ecf/db';
import {
  callByPath,
  callerOf,
  newToken,
  openPortalHarness,
  PASSWORD,
  ROLES,
  seedInvitation,
  seedWorld,
  TEST_CERTIFICATE_KEYRING,
  type TPortalHarness,
  type TRole,
  type TWorld,
} from '../../test/portal-harness.ts';

type TAccess =
  'public' | 'authed' | { tenant: TCapability } | { support: TCapability } | { partner: TPartnerCapability };
type TOutcome = 'allowed' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND';
type TRow = {
  access: TAccess;
  input: (world: TWorld, role: TRole, harness: TPortalHarness) => unknown;
  except?: Partial<Record<TRole, { outcome: TOutcome; why: string }>>;
};

/** An active endpoint of the world's tenant in TesteCF (a local receiver's address). */
async function seedWebhookEndpoint(world: TWorld, harness: TPortalHarness): Promise<string> {
  const { endpoint } = await createWebhookEndpoint({
    database: harness.database,
    tenantId: world.tenant.id,
    environment: 'TesteCF',
    name: 'Endpoint de la matriz',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: 'all',
    keyring: TEST_CERTIFICATE_KEYRING,
    allowPrivateTargets: true,
  });
  return endpoint.id;
}

let rangeBlock = 0;
/** A block of eNCF of type 31 no other cell uses. */
function freshRange(): { type: '31'; from: string; to: string } {
  rangeBlock += 1;
  const start = (Date.now() % 1_000_000) * 1000 + rangeBlock * 10;
  return {
    type: '31',
    from: `E31${String(start).padStart(10, '0')}`,
    to: `E31${String(start + 4).padStart(10, '0')}`,
  };
}

/** The world's tenant signing certificate, sealed with the test keyring. */
async function seedSigningCertificate(world: TWorld, harness: TPortalHarness): Promise<void> {
  const generated = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Firmante Matriz' });
  await storeTenantCertificate({
    database: harness.database,
    tenantId: world.tenant.id,
    p12: generated.p12,
    password: generated.password,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
}

/**
 * An annulment of the world's tenant: sent to the harness's unreachable tax authority, so it stays
 * `built`; `uncertain` is then set as a lost answer would have left it.
 */
async function seedAnnulment(world: TWorld, harness: TPortalHarness, state: 'built' | 'uncertain') {
  await seedSigningCertificate(world, harness);
  const xsd = await harness.documents.loadXsd();
  const clientFor = harness.documents.taxauthClientFor;
  assert.ok(clientFor);
  const { annulment } = await sendAnnulment({
    database: harness.database,
    tenant: world.tenant,
    environment: 'TesteCF',
    request: { ranges: [freshRange()] },
    idempotencyKey: randomUUID(),
    xsd,
    clientFor,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
  if (state === 'uncertain')
    await harness.database.annulment.update({ where: { id: annulment.id }, data: { state: 'uncertain' } });
  return annulment.id;
}

/** A failed delivery (a test event whose attempts ran out) of an active endpoint. */
async function seedFailedDelivery(world: TWorld, harness: TPortalHarness): Promise<string> {
  const endpointId = await seedWebhookEndpoint(world, harness);
  const { deliveryId } = await sendTestWebhook({
    database: harness.database,
    tenantId: world.tenant.id,
    endpointId,
    enqueue: harness.webhooks.enqueue,
  });
  await harness.database.webhookDelivery.update({
    where: { id: deliveryId },
    data: { status: 'failed', attempts: 8, failureReason: 'attempts_exhausted', completedAt: new Date() },
  });
  return deliveryId;
}

/** A queued delivery (a test event) of a fresh endpoint, waiting for its next attempt. */
async function seedQueuedDelivery(world: TWorld, harness: TPortalHarness): Promise<string> {
  const endpointId = await seedWebhookEndpoint(world, harness);
  const { deliveryId } = await sendTestWebhook({
    database: harness.database,
    tenantId: world.tenant.id,
    endpointId,
    enqueue: harness.webhooks.enqueue,
  });
  return deliveryId;
}

/** An active endpoint of the world's Partner (a local receiver's address). */
async function seedPartnerEndpoint(world: TWorld, harness: TPortalHarness): Promise<string> {
  const { endpoint } = await createPartnerWebhookEndpoint({
    database: harness.database,
    partnerId: world.partner.id,
    name: 'Endpoint Partner de la matriz',
    url: `http://127.0.0.1:9/partner-${randomUUID()}`,
    keyring: TEST_CERTIFICATE_KEYRING,
    allowPrivateTargets: true,
  });
  return endpoint.id;
}

/** An account of the world's Partner (a tenant linked to it) and, with `origin`, a fresh registered origin. */
async function seedPartnerAccount(
  world: TWorld,
  harness: TPortalHarness,
): Promise<{ accountId: string; browserOrigin: string }> {
  const tenant = await seedTenant(harness.database, { tradeName: 'Cliente del Partner' });
  await harness.database.tenant.update({
    where: { id: tenant.id },
    data: { partnerId: world.partner.id, externalTenantId: `erp-${randomUUID()}` },
  });
  const browserOrigin = `https://erp-${randomUUID().slice(0, 8)}.example.com`;
  await addBrowserOrigin({ database: harness.database, partnerId: world.partner.id, origin: browserOrigin });
  return { accountId: tenant.id, browserOrigin };
}

let counter = 0;
const freshEmail = () => `nueva-${Date.now()}-${(counter += 1)}@example.com`;

const ROWS: Record<string, TRow> = {
  'session.current': { access: 'authed', input: () => undefined },
  'session.switchTenant': {
    access: 'authed',
    input: (world) => ({ tenantId: world.tenant.id }),
    except: {
      nonMember: { outcome: 'NOT_FOUND', why: 'a tenant one does not belong to is not revealed' },
      partnerAdmin: { outcome: 'NOT_FOUND', why: 'a tenant one does not belong to is not revealed' },
      partnerDeveloper: { outcome: 'NOT_FOUND', why: 'a tenant one does not belong to is not revealed' },
    },
  },
  'session.signOutEverywhere': { access: 'authed', input: () => undefined },
  'members.list': { access: { tenant: 'members.read' }, input: () => undefined },
  'members.get': {
    access: { tenant: 'members.read' },
    input: (world) => ({ membershipId: world.target.membershipId }),
  },
  'members.changeRole': {
    access: { tenant: 'members.manage' },
    input: (world) => ({ membershipId: world.target.membershipId, role: 'developer' }),
  },
  'members.remove': {
    access: { tenant: 'members.manage' },
    input: (world) => ({ membershipId: world.target.membershipId }),
  },
  'invitations.create': {
    access: { tenant: 'members.manage' },
    input: () => ({ email: freshEmail(), role: 'accountant' }),
  },
  'invitations.listPending': { access: { tenant: 'members.read' }, input: () => undefined },
  'invitations.revoke': {
    access: { tenant: 'members.manage' },
    input: (world) => ({ invitationId: world.pending.invitation.id }),
  },
  'invitations.get': { access: 'public', input: (world) => ({ token: world.pending.token }) },
  'invitations.acceptAsNewUser': {
    access: 'public',
    input: (world) => ({ token: world.pending.token, name: 'Persona Nueva', password: PASSWORD }),
  },
  'invitations.acceptAsCurrentUser': {
    access: 'authed',
    // An invitation to the OTHER tenant, for the caller's own address.
    input: async (world, role, harness) => {
      const user = role === 'signedOut' ? world.users.owner : world.users[role];
      const { token } = await seedInvitation(harness.database, {
        tenantId: world.otherTenant.id,
        invitedById: world.otherOwner.id,
        email: user.email,
      });
      return { token };
    },
    except: { support: { outcome: 'FORBIDDEN', why: 'operator staff never become tenant members' } },
  },
  'password.requestReset': { access: 'public', input: (world) => ({ email: world.users.owner.email }) },
  'password.completeReset': {
    access: 'public',
    input: async (world, _role, harness) => {
      const { token, tokenHash } = newToken();
      await harness.database.passwordReset.create({
        data: { userId: world.users.accountant.id, tokenHash, expiresAt: new Date(Date.now() + 600_000) },
      });
      return { token, password: 'otra contraseña larga de prueba' };
    },
  },
  'audit.list': { access: { tenant: 'audit.read' }, input: () => ({}) },
  'documents.list': {
    access: { tenant: 'documents.read' },
    input: () => ({ environment: 'TesteCF', query: { status: 'accepted', limit: '10' } }),
  },
  'documents.get': {
    access: { tenant: 'documents.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      documentId: (await seedIssuedDocument(harness.database, { tenantId: world.tenant.id })).id,
    }),
  },
  'documents.locate': {
    access: { tenant: 'documents.read' },
    input: () => ({ reference: 'E310000000001', environment: 'TesteCF' }),
  },
  'live.documents': {
    access: { tenant: 'documents.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      documentIds: [(await seedIssuedDocument(harness.database, { tenantId: world.tenant.id })).id],
    }),
  },
  'tryIt.preflight': { access: { tenant: 'emission.test' }, input: () => ({ json: validTryItJson() }) },
  'tryIt.emit': { access: { tenant: 'emission.test' }, input: () => ({ json: validTryItJson() }) },
  'tryIt.status': {
    access: { tenant: 'emission.test' },
    input: async (world, _role, harness) => ({
      documentId: (await seedIssuedDocument(harness.database, { tenantId: world.tenant.id })).id,
    }),
  },
  'apiKeys.list': { access: { tenant: 'keys.read' }, input: () => ({ environment: 'TesteCF' }) },
  'apiKeys.create': {
    access: { tenant: 'keys.manage' },
    input: () => ({
      environment: 'TesteCF',
      name: 'Clave de la matriz',
      scopes: ['ecf:read', 'status:read'],
    }),
  },
  'apiKeys.revoke': {
    access: { tenant: 'keys.manage' },
    input: async (world, _role, harness) => {
      const { record } = await seedApiKey(harness.database, {
        tenantId: world.tenant.id,
        environment: 'TesteCF',
      });
      return { apiKeyId: record.id };
    },
  },
  'certificate.list': { access: { tenant: 'certificate.read' }, input: () => undefined },
  'certificate.preview': {
    access: { tenant: 'certificate.manage' },
    input: (world) => {
      const generated = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Vista Matriz' });
      return { p12Base64: generated.p12.toString('base64'), password: generated.password };
    },
  },
  'certificate.upload': {
    access: { tenant: 'certificate.manage' },
    input: (world) => {
      const generated = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Firmante Matriz' });
      return { p12Base64: generated.p12.toString('base64'), password: generated.password };
    },
  },
  'overview.get': { access: { tenant: 'overview.read' }, input: () => ({ environment: 'TesteCF' }) },
  'overview.firstSteps': { access: { tenant: 'overview.read' }, input: () => undefined },
  'account.get': { access: { tenant: 'account.read' }, input: () => undefined },
  'account.updateProfile': {
    access: { tenant: 'account.manage' },
    input: () => ({
      legalName: 'Comercial Caribe SRL',
      tradeName: '',
      address: 'Av. Churchill 100',
      phones: ['809-555-0101', '', ''],
      fiscalEmail: 'facturas@caribe.example',
    }),
  },
  'account.updateSettings': {
    access: { tenant: 'account.manage' },
    input: () => ({
      buyerEmailEnvironments: ['TesteCF'],
      paymentTermDays: 30,
      deferredSendAuthorized: false,
    }),
  },
  'webhooks.list': { access: { tenant: 'webhooks.read' }, input: () => ({ environment: 'TesteCF' }) },
  'webhooks.get': {
    access: { tenant: 'webhooks.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      endpointId: await seedWebhookEndpoint(world, harness),
    }),
  },
  'webhooks.deliveries': {
    access: { tenant: 'webhooks.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      endpointId: await seedWebhookEndpoint(world, harness),
      status: 'failed',
    }),
  },
  'webhooks.checkUrl': {
    access: { tenant: 'webhooks.manage' },
    input: () => ({ url: 'http://127.0.0.1:9/x' }),
  },
  'webhooks.create': {
    access: { tenant: 'webhooks.manage' },
    input: () => ({
      environment: 'TesteCF',
      name: 'ERP',
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['ecf.queued'],
    }),
  },
  'webhooks.update': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({
      endpointId: await seedWebhookEndpoint(world, harness),
      status: 'paused',
    }),
  },
  'webhooks.retire': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({ endpointId: await seedWebhookEndpoint(world, harness) }),
  },
  'webhooks.rotateSecret': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({
      endpointId: await seedWebhookEndpoint(world, harness),
      overlapSeconds: 3600,
    }),
  },
  'webhooks.sendTest': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({ endpointId: await seedWebhookEndpoint(world, harness) }),
  },
  'webhooks.replay': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({ deliveryId: await seedFailedDelivery(world, harness) }),
  },
  'webhooks.retryNow': {
    access: { tenant: 'webhooks.manage' },
    input: async (world, _role, harness) => ({ deliveryId: await seedQueuedDelivery(world, harness) }),
  },
  'webhooks.createInbox': {
    access: { tenant: 'webhooks.manage' },
    input: () => ({ environment: 'TesteCF' }),
  },
  'webhooks.inboxRequests': {
    access: { tenant: 'webhooks.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      endpointId: await seedWebhookEndpoint(world, harness),
    }),
  },
  'sequences.list': { access: { tenant: 'annulments.read' }, input: () => ({ environment: 'TesteCF' }) },
  'sequences.register': {
    access: { tenant: 'annulments.manage' },
    input: () => ({ environment: 'TesteCF', ...freshRange(), sequenceExpirationDate: '2028-12-31' }),
  },
  'annulments.prevalidate': {
    access: { tenant: 'annulments.manage' },
    input: () => ({ environment: 'TesteCF', ranges: [freshRange()] }),
  },
  'annulments.send': {
    access: { tenant: 'annulments.manage' },
    input: async (world, _role, harness) => {
      await seedSigningCertificate(world, harness);
      return { environment: 'TesteCF', ranges: [freshRange()], idempotencyKey: randomUUID() };
    },
  },
  'annulments.list': { access: { tenant: 'annulments.read' }, input: () => ({ environment: 'TesteCF' }) },
  'annulments.get': {
    access: { tenant: 'annulments.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      annulmentId: await seedAnnulment(world, harness, 'built'),
    }),
  },
  'annulments.reconcile': {
    access: { tenant: 'annulments.manage' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      annulmentId: await seedAnnulment(world, harness, 'uncertain'),
      outcome: 'accepted',
      evidence: '{"codigo":"1","mensajes":["Las secuencias fueron anuladas correctamente."]}',
    }),
  },
  'inbound.listDocuments': {
    access: { tenant: 'inbound.read' },
    input: () => ({ environment: 'TesteCF', query: {} }),
  },
  'inbound.getDocument': {
    access: { tenant: 'inbound.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      inboundDocumentId: (await seedInbound(harness.database, { tenantId: world.tenant.id })).id,
    }),
  },
  'inbound.listApprovals': {
    access: { tenant: 'inbound.read' },
    input: () => ({ environment: 'TesteCF', query: {} }),
  },
  'inbound.getApproval': {
    access: { tenant: 'inbound.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      inboundDocumentId: (
        await seedInbound(harness.database, {
          tenantId: world.tenant.id,
          kind: 'commercial_approval',
          issuerRnc: world.tenant.rnc,
          decision: 'accepted',
        })
      ).id,
    }),
  },
  // Issue 18, task C: an answered e-CF (the same decision again answers without the network).
  'commercialApprovals.get': {
    access: { tenant: 'inbound.read' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      inboundDocumentId: (
        await seedReceivedWithApproval(harness.database, {
          tenantId: world.tenant.id,
          buyerRnc: world.tenant.rnc,
        })
      ).inboundDocumentId,
    }),
  },
  'commercialApprovals.submit': {
    access: { tenant: 'inbound.approve' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      inboundDocumentId: (
        await seedReceivedWithApproval(harness.database, {
          tenantId: world.tenant.id,
          buyerRnc: world.tenant.rnc,
          approval: { decision: 'accept' },
        })
      ).inboundDocumentId,
      decision: 'accept',
      approvalDate: new Date(Date.now() - 60_000).toISOString(),
    }),
  },
  'commercialApprovals.reconcile': {
    access: { tenant: 'inbound.approve' },
    input: async (world, _role, harness) => ({
      environment: 'TesteCF',
      inboundDocumentId: (
        await seedReceivedWithApproval(harness.database, {
          tenantId: world.tenant.id,
          buyerRnc: world.tenant.rnc,
          approval: { dispatchStatus: 'uncertain' },
        })
      ).inboundDocumentId,
      outcome: 'dispatch_failed',
      note: 'El emisor no lo recibió',
    }),
  },
  // Issue 19: certification in CerteCF. The workbooks are the tax authority's, generated for one
  // RNC each: the cell's tenant takes that RNC first.
  'certification.case': {
    access: { tenant: 'certification.read' },
    input: () => ({ environment: 'CerteCF' }),
  },
  'certification.prevalidate': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      await claimRnc(harness.database, world.tenant.id, MODEL_SET_RNC);
      return { environment: 'CerteCF', workbookBase64: modelWorkbookBase64('ecf') };
    },
  },
  'certification.startRun': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      await claimRnc(harness.database, world.tenant.id, MODEL_SET_RNC);
      await seedCertificationCertificate(harness.database, { id: world.tenant.id, rnc: MODEL_SET_RNC });
      return { environment: 'CerteCF', workbookBase64: modelWorkbookBase64('ecf') };
    },
  },
  'certification.run': {
    access: { tenant: 'certification.read' },
    input: async (world, _role, harness) => ({
      environment: 'CerteCF',
      runId: (await seedIssuedRun(harness.database, world.tenant.id)).runId,
    }),
  },
  'certification.restart': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      // A run in progress for the restart to stop.
      await seedIssuedRun(harness.database, world.tenant.id);
      return { environment: 'CerteCF', part: 'data' };
    },
  },
  'certification.approvals': {
    access: { tenant: 'certification.read' },
    input: () => ({ environment: 'CerteCF' }),
  },
  'certification.sendApprovals': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      await claimRnc(harness.database, world.tenant.id, MODEL_APPROVALS_RNC);
      await seedCertificationCertificate(harness.database, { id: world.tenant.id, rnc: MODEL_APPROVALS_RNC });
      await seedOpenCase(harness.database, world.tenant.id, ['registered', 'data_tests_ecf']);
      return { environment: 'CerteCF', workbookBase64: modelWorkbookBase64('approvals') };
    },
  },
  'certification.attest': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      await seedOpenCase(harness.database, world.tenant.id);
      return { environment: 'CerteCF', step: 'registered', notes: 'Postulación aprobada' };
    },
  },
  'certification.resend': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => ({
      environment: 'CerteCF',
      documentId: (await seedIssuedRun(harness.database, world.tenant.id)).documentId,
    }),
  },
  'certification.requestActivation': {
    access: { tenant: 'certification.manage' },
    input: async (world, _role, harness) => {
      // Every step before the tax authority's verification of the status: the activation may be asked.
      await seedOpenCase(
        harness.database,
        world.tenant.id,
        CERTIFICATION_STEPS.slice(0, CERTIFICATION_STEPS.indexOf('status_verification')),
      );
      return { environment: 'CerteCF' };
    },
  },
  'support.tenants': { access: { support: 'support.read' }, input: () => undefined },
  'support.contingency': { access: { support: 'support.read' }, input: () => ({}) },
  'support.episodes': { access: { support: 'support.read' }, input: () => undefined },
  'support.notifications': { access: { support: 'support.read' }, input: () => undefined },
  'support.acknowledgeNotification': {
    access: { support: 'support.act' },
    input: async (world, _role, harness) => {
      const notification = await harness.database.operatorNotification.create({
        data: { kind: 'contingency_72h', tenantId: world.tenant.id, data: { message: 'matrix' } },
      });
      return { notificationId: notification.id };
    },
  },
  'support.uncertainDeliveries': { access: { support: 'support.read' }, input: () => undefined },
  'support.reconcileDelivery': {
    access: { support: 'support.act' },
    input: async (world, _role, harness) => {
      const document = await harness.database.document.create({
        data: {
          tenantId: world.tenant.id,
          environment: 'TesteCF',
          type: 31,
          encf: `E31${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`,
          status: 'accepted',
          format: 'simplified',
          issueDate: new Date('2026-11-20'),
          totalAmount: '118.00',
          submittedPayload: {},
        },
      });
      await harness.database.receiverDelivery.create({
        data: { documentId: document.id, tenantId: world.tenant.id, status: 'uncertain', attempts: 6 },
      });
      return { documentId: document.id, outcome: 'dispatch_failed', note: 'never reached the buyer' };
    },
  },
  // The Partner portal (issue 20).
  'partner.accounts': { access: { partner: 'partner.accounts.read' }, input: () => undefined },
  'partner.account': {
    access: { partner: 'partner.accounts.read' },
    input: async (world, _role, harness) => ({
      accountId: (await seedPartnerAccount(world, harness)).accountId,
    }),
  },
  'partner.createCertificationLink': {
    access: { partner: 'partner.accounts.manage' },
    input: (world, _role, harness) => seedPartnerAccount(world, harness),
  },
  'partner.createUploadSession': {
    access: { partner: 'partner.accounts.manage' },
    input: (world, _role, harness) => seedPartnerAccount(world, harness),
  },
  'partner.keys': { access: { partner: 'partner.keys.read' }, input: () => undefined },
  'partner.createKey': {
    access: { partner: 'partner.keys.manage' },
    input: () => ({ name: 'Clave de la matriz', profile: 'runtime' }),
  },
  'partner.revokeKey': {
    access: { partner: 'partner.keys.manage' },
    input: async (world, _role, harness) => ({
      keyId: (await createPartnerKey({ database: harness.database, partnerId: world.partner.id, name: 'k' }))
        .row.id,
    }),
  },
  'partner.origins': { access: { partner: 'partner.origins.read' }, input: () => undefined },
  'partner.addOrigin': {
    access: { partner: 'partner.origins.manage' },
    input: () => ({ origin: 'https://erp.example.com' }),
  },
  'partner.removeOrigin': {
    access: { partner: 'partner.origins.manage' },
    input: async (world, _role, harness) => {
      await addBrowserOrigin({
        database: harness.database,
        partnerId: world.partner.id,
        origin: 'https://old.example.com',
      });
      return { origin: 'https://old.example.com' };
    },
  },
  'partner.endpoints': { access: { partner: 'partner.webhooks.read' }, input: () => undefined },
  'partner.createEndpoint': {
    access: { partner: 'partner.webhooks.manage' },
    input: () => ({ name: 'ERP', url: 'http://127.0.0.1:9/partner', eventTypes: 'all' }),
  },
  'partner.updateEndpoint': {
    access: { partner: 'partner.webhooks.manage' },
    input: async (world, _role, harness) => ({
      endpointId: await seedPartnerEndpoint(world, harness),
      status: 'paused',
    }),
  },
  'partner.retireEndpoint': {
    access: { partner: 'partner.webhooks.manage' },
    input: async (world, _role, harness) => ({ endpointId: await seedPartnerEndpoint(world, harness) }),
  },
  'partner.deliveries': { access: { partner: 'partner.webhooks.read' }, input: () => ({}) },
  'partner.delivery': {
    access: { partner: 'partner.webhooks.read' },
    input: async (world, _role, harness) => {
      const endpointId = await seedPartnerEndpoint(world, harness);
      const { deliveryId } = await sendPartnerTestWebhook({
        database: harness.database,
        partnerId: world.partner.id,
        endpointId,
        account: { fiscalAccountId: world.tenant.id, externalTenantId: 'matriz' },
        environment: 'TesteCF',
        enqueue: harness.webhooks.enqueue,
      });
      return { deliveryId };
    },
  },
  'partner.replay': {
    access: { partner: 'partner.webhooks.manage' },
    input: async (world, _role, harness) => {
      const endpointId = await seedPartnerEndpoint(world, harness);
      const { deliveryId } = await sendPartnerTestWebhook({
        database: harness.database,
        partnerId: world.partner.id,
        endpointId,
        account: { fiscalAccountId: world.tenant.id, externalTenantId: 'matriz' },
        environment: 'TesteCF',
        enqueue: harness.webhooks.enqueue,
      });
      await harness.database.webhookDelivery.update({
        where: { id: deliveryId },
        data: { status: 'failed', attempts: 8, failureReason: 'attempts_exhausted', completedAt: new Date() },
      });
      return { deliveryId };
    },
  },
  'partner.billing': { access: { partner: 'partner.billing.read' }, input: () => ({}) },
  'exports.issued': {
    access: { tenant: 'documents.read' },
    input: () => ({ environment: 'TesteCF', format: 'csv', month: '2026-10' }),
  },
  'exports.received': {
    access: { tenant: 'inbound.read' },
    input: () => ({ environment: 'TesteCF', format: 'xlsx', query: {} }),
  },
  'exports.auditLog': { access: { tenant: 'audit.read' }, input: () => ({ format: 'csv' }) },
  'exports.get': {
    access: { tenant: 'overview.read' },
    // An export of the caller itself (another user's is NOT_FOUND, like an unknown id).
    input: async (world, role, harness) => {
      const user = role === 'signedOut' ? world.users.owner : world.users[role];
      const row = await harness.database.portalExport.create({
        data: {
          tenantId: world.tenant.id,
          userId: user.id,
          kind: 'issued',
          format: 'csv',
          status: 'queued',
          expiresAt: new Date(Date.now() + 3_600_000),
        },
      });
      return { exportId: row.id };
    },
  },
};

/** The Partner role of a matrix role, if it is one. */
const PARTNER_ROLE_OF = { partnerAdmin: 'partner_admin', partnerDeveloper: 'partner_developer' } as const;

/** What the access and the permission tables say a role gets. */
function expectedOutcome(access: TAccess, role: TRole): TOutcome {
  if (access === 'public') return 'allowed';
  if (role === 'signedOut') return 'UNAUTHORIZED';
  if (access === 'authed') return 'allowed';
  if ('partner' in access)
    return role === 'partnerAdmin' || role === 'partnerDeveloper'
      ? hasPartnerCapability(PARTNER_ROLE_OF[role], access.partner)
        ? 'allowed'
        : 'FORBIDDEN'
      : 'FORBIDDEN';
  // People who work for a Partner have no tenant: every tenant procedure refuses them.
  if (role === 'partnerAdmin' || role === 'partnerDeveloper') return 'FORBIDDEN';
  if ('support' in access) return role === 'support' ? 'allowed' : 'FORBIDDEN';
  const capability = access.tenant;
  if (role === 'support')
    return ([...SUPPORT_READS, ...SUPPORT_ACTIONS] as readonly TCapability[]).includes(capability)
      ? 'allowed'
      : 'FORBIDDEN';
  if (role === 'nonMember') return 'FORBIDDEN';
  return (CAPABILITIES[capability] as readonly string[]).includes(role) ? 'allowed' : 'FORBIDDEN';
}

async function outcomeOf(call: Promise<unknown>): Promise<{ outcome: string; error?: unknown }> {
  try {
    await call;
    return { outcome: 'allowed' };
  } catch (error) {
    if (error instanceof TRPCError) return { outcome: error.code, error };
    return { outcome: 'unexpected', error };
  }
}

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('every procedure of the router has a row in the matrix, and every row a procedure', () => {
  const procedures = Object.keys(appRouter._def.procedures).sort();
  assert.deepEqual(Object.keys(ROWS).sort(), procedures);
});

for (const [path, row] of Object.entries(ROWS)) {
  describe(path, () => {
    for (const role of ROLES) {
      const exception = row.except?.[role];
      const expected = exception?.outcome ?? expectedOutcome(row.access, role);
      test(`${role}: ${expected}${exception ? ` (${exception.why})` : ''}`, async () => {
        const world = await seedWorld(harness.database);
        const input = await row.input(world, role, harness);
        const auditBefore = await harness.database.portalAuditEntry.count({
          where: { tenantId: world.tenant.id, action: 'support.viewed' },
        });
        const { outcome, error } = await outcomeOf(
          callByPath(callerOf(harness, world.sessions[role]), path, input),
        );
        assert.equal(
          outcome,
          expected,
          error instanceof Error ? `${error.message}\n${String(error.cause)}` : undefined,
        );
        // Support reading a tenant's data leaves an entry in that tenant's audit log.
        if (role === 'support' && typeof row.access === 'object' && 'tenant' in row.access) {
          const auditAfter = await harness.database.portalAuditEntry.count({
            where: { tenantId: world.tenant.id, action: 'support.viewed', targetId: path },
          });
          assert.equal(auditAfter - auditBefore, expected === 'allowed' ? 1 : 0);
        }
      });
    }
  });
}
