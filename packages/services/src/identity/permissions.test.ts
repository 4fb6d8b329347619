import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CAPABILITIES,
  capabilitiesOf,
  grantableScopes,
  hasCapability,
  MEMBER_ROLES,
  SUPPORT_ACTIONS,
  SUPPORT_READS,
  type TCapability,
} from './permissions.ts';

test('support reads what it is given and acts only through the named support actions', () => {
  const support = capabilitiesOf({ kind: 'support' });
  assert.deepEqual(support.sort(), [...SUPPORT_READS, ...SUPPORT_ACTIONS].sort());
  for (const capability of support)
    assert.ok(
      capability.endsWith('.read') || capability.endsWith('.download') || capability === 'support.act',
      `support may only read, download or act at the desk: ${capability}`,
    );
  assert.equal(hasCapability({ kind: 'support' }, 'members.manage'), false);
  assert.equal(hasCapability({ kind: 'support' }, 'keys.manage'), false);
});

test("the support desk is support's alone; owners have every tenant capability", () => {
  for (const role of MEMBER_ROLES) {
    assert.equal(hasCapability({ kind: 'member', role }, 'support.read'), false);
    assert.equal(hasCapability({ kind: 'member', role }, 'support.act'), false);
  }
  const tenantCapabilities = (Object.keys(CAPABILITIES) as TCapability[]).filter(
    (capability) => !capability.startsWith('support.'),
  );
  assert.deepEqual(capabilitiesOf({ kind: 'member', role: 'owner' }), tenantCapabilities);
  assert.deepEqual(capabilitiesOf({ kind: 'member', role: 'accountant' }), [
    'overview.read',
    'documents.read',
    'documents.download',
    'certificate.read',
    'account.read',
    'members.read',
    // Accountants read received e-CF and answer them (the commercial approval of suppliers' invoices).
    'inbound.read',
    'inbound.approve',
    // Accountants follow the certification (steps, runs, evidence) without changing it.
    'certification.read',
  ]);
});

test('a member never grants an API key more power than their role', () => {
  assert.deepEqual(grantableScopes('owner'), [
    'ecf:validate',
    'ecf:create',
    'ecf:read',
    'status:read',
    'tenant:admin',
  ]);
  assert.deepEqual(grantableScopes('developer'), ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read']);
  assert.deepEqual(grantableScopes('accountant'), []);
});
