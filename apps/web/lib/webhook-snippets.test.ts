// The verification snippets the test inbox page offers, run for real: a delivery made by our own
// transport (deliverWebhook: signed as every webhook is) to a local node:http receiver that keeps
// the raw bytes and the Svc-Signature header; then the JavaScript snippet under Node and the Python
// snippet under python3 verify it with the endpoint's secret, and refuse it with another secret, a
// changed body, or a timestamp over 5 minutes old. The C# one is read against the same scheme.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  closeWebhookConnections,
  deliverWebhook,
  generateWebhookSecret,
  signWebhookBody,
} from '@ecf/services';
import { prettyJson } from './pretty-json.ts';
import {
  WEBHOOK_SNIPPET_CSHARP,
  WEBHOOK_SNIPPET_JAVASCRIPT,
  WEBHOOK_SNIPPET_PYTHON,
} from './webhook-snippets.ts';

const directory = mkdtempSync(path.join(tmpdir(), 'ecf-snippets-'));
const secret = generateWebhookSecret();
let received: { header: string; body: Buffer };

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

before(async () => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received = { header: String(request.headers['svc-signature']), body: Buffer.concat(chunks) };
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  const result = await deliverWebhook({
    url: `http://127.0.0.1:${address.port}/hook`,
    body: '{"id":"0f3a2c4e-6d1b-4b8e-9f47-2a51c9d0e6b3","type":"webhook.test","data":{"total":"1180.00","nombre":"Señal ✓"}}',
    eventId: '0f3a2c4e-6d1b-4b8e-9f47-2a51c9d0e6b3',
    eventType: 'webhook.test',
    secrets: [secret],
    now: () => new Date(),
    allowPrivateTargets: true,
  });
  assert.equal(result.outcome, 'succeeded');
  server.close();
});
after(async () => {
  await closeWebhookConnections();
});

type TCase = { header: string; body: Buffer; secret: string };

function cases(): Array<{ name: string; input: TCase; valid: boolean }> {
  const old = Math.floor(Date.now() / 1000) - 600;
  return [
    { name: 'the delivery as received', input: { ...received, secret }, valid: true },
    { name: 'another secret', input: { ...received, secret: generateWebhookSecret() }, valid: false },
    {
      name: 'a changed body',
      input: {
        ...received,
        body: Buffer.from(received.body.toString('utf8').replace('1180.00', '1180.01')),
        secret,
      },
      valid: false,
    },
    {
      name: 'a timestamp 10 minutes old',
      input: {
        header: signWebhookBody({ body: received.body, secrets: [secret], timestampSeconds: old }),
        body: received.body,
        secret,
      },
      valid: false,
    },
    { name: 'no header', input: { header: '', body: received.body, secret }, valid: false },
    {
      name: 'a rotation: the second v1 is ours',
      input: {
        header: signWebhookBody({
          body: received.body,
          secrets: [generateWebhookSecret(), secret],
          timestampSeconds: Math.floor(Date.now() / 1000),
        }),
        body: received.body,
        secret,
      },
      valid: true,
    },
  ];
}

function write(name: string, text: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, text);
  return file;
}

test('the JavaScript snippet verifies a real delivery under Node, and refuses what it must', () => {
  const file = write(
    'verify.cjs',
    `${WEBHOOK_SNIPPET_JAVASCRIPT}
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
process.stdout.write(String(verifySvcSignature(input.header, Buffer.from(input.body, 'base64'), input.secret)));
`,
  );
  for (const { name, input, valid } of cases()) {
    const output = execFileSync(process.execPath, [file], {
      input: JSON.stringify({ ...input, body: input.body.toString('base64') }),
      encoding: 'utf8',
    });
    assert.equal(output, String(valid), name);
  }
});

test(
  'the Python snippet verifies a real delivery under python3, and refuses what it must',
  { skip: !hasPython },
  () => {
    const file = write(
      'verify.py',
      `${WEBHOOK_SNIPPET_PYTHON}

if __name__ == "__main__":
    import base64, json, sys
    data = json.load(sys.stdin)
    print("true" if verify_svc_signature(data["header"], base64.b64decode(data["body"]), data["secret"]) else "false", end="")
`,
    );
    for (const { name, input, valid } of cases()) {
      const output = execFileSync('python3', [file], {
        input: JSON.stringify({ ...input, body: input.body.toString('base64') }),
        encoding: 'utf8',
      });
      assert.equal(output, String(valid), name);
    }
  },
);

test('the C# snippet follows the same scheme (no .NET here to run it)', () => {
  for (const part of [
    'new HMACSHA256(Encoding.UTF8.GetBytes(secret))',
    'timestamps[0] + "."',
    'CryptographicOperations.FixedTimeEquals',
    'key == "v1"',
    'timestamps.Count != 1',
    '> toleranceSeconds',
  ])
    assert.ok(WEBHOOK_SNIPPET_CSHARP.includes(part), part);
});

test('prettyJson indents without touching a token', () => {
  const text = '{"a":1.10,"b":[],"c":{},"d":"x, y: {z}","e":[1,{"f":"\\"q\\""}],"g":1e400}';
  const pretty = prettyJson(text);
  assert.equal(pretty.replace(/\s+(?=(?:[^"\\]|\\.)*(?:"(?:[^"\\]|\\.)*"(?:[^"\\]|\\.)*)*$)/g, ''), text);
  assert.match(pretty, /"a": 1\.10,\n {2}"b": \[\],\n {2}"c": \{\},/);
  assert.match(pretty, /"d": "x, y: \{z\}"/);
  assert.match(pretty, /"g": 1e400\n\}$/);
  assert.equal(prettyJson('no es JSON'), 'noesJSON');
});

test('the receiver guide shows the three snippets verbatim', () => {
  const guide = readFileSync(
    path.join(import.meta.dirname, '..', '..', '..', 'docs', 'webhooks', 'receiver-guide.md'),
    'utf8',
  );
  for (const [fence, code] of [
    ['js', WEBHOOK_SNIPPET_JAVASCRIPT],
    ['python', WEBHOOK_SNIPPET_PYTHON],
    ['csharp', WEBHOOK_SNIPPET_CSHARP],
  ] as const)
    assert.ok(guide.includes(`\`\`\`${fence}\n${code}\`\`\``), `${fence} snippet not in the guide`);
});
