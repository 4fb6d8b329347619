// The SSRF guard with `allowPrivateTargets` OFF (the default): every loopback, private,
// link-local, CGNAT, multicast, metadata, unspecified or reserved target, plain http, credentials,
// a name resolving to a private address (injected resolver and the real `localhost`), DNS
// rebinding between save and send, and a redirect to a private address — all refused; refused
// sends never reach the local receiver. Then what the development option does and does not allow.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../shared/errors.ts';
import { startReceiver, type TReceiver } from '../../../test/webhook-receivers.ts';
import {
  addressRefusal,
  assertWebhookTarget,
  deliverWebhook,
  webhookUrlRefusal,
  type TWebhookResolver,
  type TWebhookTargetRefusal,
} from './index.ts';

const OFF = { allowPrivateTargets: false } as const;
const ON = { allowPrivateTargets: true } as const;

/** A resolver that answers from a table (a host name absent from it does not exist). */
function resolverOf(table: Record<string, string[]>): TWebhookResolver {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusalOf(
  url: string,
  options: { allowPrivateTargets: boolean; resolve?: TWebhookResolver },
): Promise<string | null> {
  try {
    await assertWebhookTarget(url, options);
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError, `AppError expected for ${url}`);
    assert.equal(error.code, 'INVALID_REQUEST');
    assert.equal(error.status, 400);
    assert.equal(error.details.reason, 'webhook_url_not_allowed');
    const issues = error.details.issues as { path: string; code: string; message: string }[];
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.path, 'url');
    assert.equal(issues[0]?.code, error.details.code);
    return error.details.code as string;
  }
}

const send = (url: string, options: { allowPrivateTargets: boolean; resolve?: TWebhookResolver }) =>
  deliverWebhook({
    url,
    body: '{"id":"evt_1"}',
    eventId: 'evt_1',
    eventType: 'webhook.test',
    secrets: ['whsec_test'],
    now: () => new Date('2026-11-25T12:00:00Z'),
    timeoutMs: 2_000,
    ...options,
  });

describe('target rules with allowPrivateTargets off', () => {
  const refused: [string, TWebhookTargetRefusal][] = [
    ['https://127.0.0.1/hook', 'address_not_public'],
    ['https://127.1.2.3:8443/hook', 'address_not_public'],
    ['https://[::1]/hook', 'address_not_public'],
    ['https://169.254.169.254/latest/meta-data/', 'address_not_public'],
    ['https://169.254.170.2/v2/credentials', 'address_not_public'],
    ['https://10.0.0.1/hook', 'address_not_public'],
    ['https://172.16.5.4/hook', 'address_not_public'],
    ['https://192.168.1.10/hook', 'address_not_public'],
    ['https://100.64.0.1/hook', 'address_not_public'],
    ['https://100.100.100.200/hook', 'address_not_public'],
    ['https://0.0.0.0/hook', 'address_not_public'],
    ['https://224.0.0.1/hook', 'address_not_public'],
    ['https://255.255.255.255/hook', 'address_not_public'],
    ['https://192.0.2.1/hook', 'address_not_public'],
    ['https://240.0.0.1/hook', 'address_not_public'],
    ['https://[::ffff:127.0.0.1]/hook', 'address_not_public'],
    ['https://[::ffff:10.0.0.1]/hook', 'address_not_public'],
    ['https://[::ffff:169.254.169.254]/hook', 'address_not_public'],
    ['https://[::]/hook', 'address_not_public'],
    ['https://[fe80::1]/hook', 'address_not_public'],
    ['https://[fc00::1]/hook', 'address_not_public'],
    ['https://[fd00:ec2::254]/hook', 'address_not_public'],
    ['https://[ff02::1]/hook', 'address_not_public'],
    // WHATWG URL turns these spellings into 127.0.0.1 before the guard looks.
    ['https://2130706433/hook', 'address_not_public'],
    ['https://0x7f.1/hook', 'address_not_public'],
    ['https://localhost/hook', 'host_not_allowed'],
    ['https://LOCALHOST./hook', 'host_not_allowed'],
    ['https://api.localhost/hook', 'host_not_allowed'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'host_not_allowed'],
    ['http://93.184.215.14/hook', 'scheme_not_https'],
    ['ftp://93.184.215.14/hook', 'scheme_not_https'],
    ['https://user:secret@93.184.215.14/hook', 'credentials_in_url'],
    ['https://user@93.184.215.14/hook', 'credentials_in_url'],
    [`https://93.184.215.14/${'a'.repeat(2048)}`, 'url_too_long'],
    ['not a url', 'url_invalid'],
    ['/relative/hook', 'url_invalid'],
  ];
  for (const [url, code] of refused)
    test(`refuses ${url.slice(0, 60)} (${code})`, async () => {
      assert.equal(await refusalOf(url, OFF), code);
    });

  test('accepts public HTTPS targets up to 2048 characters', async () => {
    const resolve = resolverOf({
      'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    assert.equal(await refusalOf('https://93.184.215.14/hook', OFF), null);
    assert.equal(await refusalOf('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', OFF), null);
    assert.equal(await refusalOf('https://hooks.example.com:8443/a?b=c', { ...OFF, resolve }), null);
    const longest = `https://93.184.215.14/${'a'.repeat(2048 - 'https://93.184.215.14/'.length)}`;
    assert.equal(longest.length, 2048);
    assert.equal(await refusalOf(longest, OFF), null);
    assert.equal(webhookUrlRefusal('https://hooks.example.com/x', OFF), null);
  });

  test('a host name resolving to a private address is refused; every address is checked', async () => {
    const resolve = resolverOf({
      'internal.example.com': ['10.1.2.3'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
      'mixed.example.com': ['93.184.215.14', '192.168.0.7'],
      'mixed6.example.com': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'fe80::1'],
      'empty.example.com': [],
    });
    assert.equal(
      await refusalOf('https://internal.example.com/hook', { ...OFF, resolve }),
      'address_not_public',
    );
    assert.equal(
      await refusalOf('https://mapped.example.com/hook', { ...OFF, resolve }),
      'address_not_public',
    );
    assert.equal(
      await refusalOf('https://mixed.example.com/hook', { ...OFF, resolve }),
      'address_not_public',
    );
    assert.equal(
      await refusalOf('https://mixed6.example.com/hook', { ...OFF, resolve }),
      'address_not_public',
    );
    assert.equal(await refusalOf('https://empty.example.com/hook', { ...OFF, resolve }), 'host_unresolvable');
    assert.equal(
      await refusalOf('https://missing.example.com/hook', { ...OFF, resolve }),
      'host_unresolvable',
    );
  });

  describe('sends are refused before anything reaches the receiver', () => {
    let receiver: TReceiver;
    let redirectToPrivate: TReceiver;
    before(async () => {
      receiver = await startReceiver((response) => response.writeHead(200).end('ok'));
      redirectToPrivate = await startReceiver((response) =>
        response.writeHead(302, { location: 'http://10.0.0.1/steal' }).end(),
      );
    });
    after(async () => {
      await receiver.close();
      await redirectToPrivate.close();
    });

    test('loopback literals, plain http and localhost', async () => {
      const port = receiver.port;
      const urls = [
        receiver.url,
        `https://127.0.0.1:${port}/hook`,
        `http://[::1]:${port}/hook`,
        `http://[::ffff:127.0.0.1]:${port}/hook`,
        `https://localhost:${port}/hook`,
        `http://169.254.169.254/latest/meta-data/`,
        `https://10.0.0.1/hook`,
        redirectToPrivate.url,
      ];
      for (const url of urls) {
        const result = await send(url, OFF);
        assert.equal(result.outcome, 'failed', url);
        assert.equal(result.status, undefined, url);
        assert.ok(
          ['address_not_public', 'scheme_not_https', 'host_not_allowed'].includes(result.error?.code ?? ''),
          `${url}: ${result.error?.code}`,
        );
      }
      assert.equal(receiver.requests.length, 0);
      assert.equal(redirectToPrivate.requests.length, 0);
    });

    test('a host name resolving to loopback is refused at connection time', async () => {
      const resolve = resolverOf({ 'receiver.example.com': ['127.0.0.1'] });
      // Plain http is refused first with the guard off, so ask for https: the lookup refuses it.
      const result = await send(`https://receiver.example.com:${receiver.port}/hook`, { ...OFF, resolve });
      assert.equal(result.outcome, 'failed');
      assert.equal(result.error?.code, 'address_not_public');
      assert.match(result.error?.message ?? '', /127\.0\.0\.1/);
      assert.equal(receiver.requests.length, 0);
    });

    test('DNS rebinding: public when saved, private when sent — refused at the connection', async () => {
      let calls = 0;
      const resolve: TWebhookResolver = async () => {
        calls += 1;
        return [{ address: calls === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
      };
      const url = `https://rebind.example.com:${receiver.port}/hook`;
      assert.equal(await refusalOf(url, { ...OFF, resolve }), null);
      const result = await send(url, { ...OFF, resolve });
      assert.equal(calls, 2);
      assert.equal(result.outcome, 'failed');
      assert.equal(result.error?.code, 'address_not_public');
      assert.equal(receiver.requests.length, 0);
    });

    test('localhost by name, and a name the system resolver maps to a private address', async (t) => {
      const byName = await send(`https://localhost.:${receiver.port}/hook`, OFF);
      assert.equal(byName.outcome, 'failed');
      assert.equal(byName.error?.code, 'host_not_allowed');
      // This machine's own name resolves (through /etc/hosts or DNS) to a loopback or private
      // address on any test machine; the default system resolver must refuse it.
      const name = hostname();
      const addresses = await lookup(name, { all: true }).catch(() => []);
      if (addresses.length === 0 || addresses.every(({ address }) => addressRefusal(address, OFF) === null))
        return t.skip(`${name} does not resolve to a private address here`);
      assert.equal(await refusalOf(`https://${name}:${receiver.port}/hook`, OFF), 'address_not_public');
      const bySystem = await send(`https://${name}:${receiver.port}/hook`, OFF);
      assert.equal(bySystem.outcome, 'failed');
      assert.equal(bySystem.error?.code, 'address_not_public');
      assert.equal(receiver.requests.length, 0);
    });
  });
});

describe('target rules with allowPrivateTargets on (development)', () => {
  test('allows http, localhost, loopback, private and CGNAT addresses', async () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://localhost:3000/hook',
      'http://[::1]:3000/hook',
      'http://[::ffff:127.0.0.1]:3000/hook',
      'http://10.0.0.1/hook',
      'http://192.168.1.2/hook',
      'http://100.64.0.1/hook',
      'http://[fd12::1]/hook',
    ])
      assert.equal(webhookUrlRefusal(url, ON), null, url);
  });

  test('still refuses metadata, link-local, multicast, unspecified and reserved targets', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://169.254.1.1/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://metadata.google.internal/',
      'http://0.0.0.0:3000/',
      'http://[::]:3000/',
      'http://224.0.0.1/',
      'http://240.0.0.1/',
    ])
      assert.equal(
        await refusalOf(url, ON),
        url.includes('metadata.google') ? 'host_not_allowed' : 'address_not_public',
        url,
      );
    assert.equal(await refusalOf('https://u:p@127.0.0.1/', ON), 'credentials_in_url');
    assert.equal(await refusalOf('ftp://127.0.0.1/', ON), 'scheme_not_https');
    const resolve = resolverOf({ 'meta.example.com': ['169.254.169.254'] });
    assert.equal(await refusalOf('http://meta.example.com/', { ...ON, resolve }), 'address_not_public');
  });
});
