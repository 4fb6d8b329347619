// Every JSON body goes through one parser (plugins/json-body.ts): strict UTF-8, a leading BOM
// dropped, syntax, duplicate member names and depth refused the same way on every route.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedDocument } from '@ecf/db';
import { ZErrorResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { simplifiedE31 } from '../test/submissions.ts';

let api: TTestApi;
let key: string;
let tenantId: string;
before(async () => {
  api = await startTestApi();
  const seeded = await seedTenantWithKey(api.database);
  key = seeded.key;
  tenantId = seeded.tenant.id;
});
after(async () => {
  await api.close();
});

/** Every route that takes a JSON body. */
const JSON_ROUTES = [
  '/TesteCF/documentos-ecf',
  '/TesteCF/documentos-ecf?validate=true',
  '/TesteCF/documentos-ecf/status/batch',
  `/TesteCF/documentos-ecf/${randomUUID()}/entrega-receptor/reconciliar`,
];

const post = (url: string, payload: string | Buffer, contentType = 'application/json') =>
  api.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, 'x-api-key': key },
    payload,
  });

function assertInvalidJson(
  response: { statusCode: number; json: () => unknown; body: string; headers: Record<string, unknown> },
  reason: string,
) {
  assert.equal(response.statusCode, 400, response.body);
  const body = ZErrorResponse.parse(response.json());
  assert.equal(body.error.code, 'INVALID_JSON');
  assert.equal(body.error.details.reason, reason, response.body);
  assert.equal(body.correlationId, response.headers['x-correlation-id']);
  return body;
}

/** The text of `value` as JSON, with `bytes` in place of the marker `@@`. */
function withBytes(value: unknown, bytes: number[]): Buffer {
  const [before = '', after = ''] = JSON.stringify(value).split('@@');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

const documentCount = () => api.database.document.count({ where: { tenantId } });

test('invalid UTF-8 is 400 INVALID_JSON invalid_utf8 on every JSON route, and nothing is stored', async () => {
  const malformed = [
    [0xff, 0xfe], // never valid
    [0xc0, 0x80], // overlong NUL
    [0xed, 0xa0, 0x80], // an encoded surrogate
    [0xe2, 0x82], // truncated sequence
    [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  ];
  for (const bytes of malformed) {
    const bodies = [
      withBytes(simplifiedE31({ buyer: { rnc: '101672919', name: 'AB@@CD' } }), bytes),
      withBytes(simplifiedE31({ buyer: { rnc: '101672919', name: 'AB@@CD' } }), bytes),
      withBytes({ encfs: ['E31@@0000000001'] }, bytes),
      withBytes({ outcome: 'dispatch_failed', note: 'AB@@CD' }, bytes),
    ];
    for (const [index, url] of JSON_ROUTES.entries()) {
      const payload = bodies[index]!;
      const body = assertInvalidJson(await post(url, payload), 'invalid_utf8');
      assert.equal(
        body.error.details.offset,
        payload.indexOf(Buffer.from(bytes)),
        `${url} ${bytes.join(',')}`,
      );
    }
  }
  assert.equal(await documentCount(), 0, 'no document was stored, signed or sent');
});

test('a leading UTF-8 BOM is dropped: the document is accepted and stored without it', async () => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const text = JSON.stringify(simplifiedE31());
  const response = await post('/TesteCF/documentos-ecf', Buffer.concat([BOM, Buffer.from(text)]));
  assert.equal(response.statusCode, 202, response.body);
  const { documentId } = response.json<{ documentId: string }>();
  // The same JSON without the BOM is a replay of that document, not a new one nor a conflict.
  const replay = await post('/TesteCF/documentos-ecf', text);
  assert.equal(replay.statusCode, 202, replay.body);
  assert.equal(replay.json<{ documentId: string }>().documentId, documentId);
  const batch = await post(
    '/TesteCF/documentos-ecf/status/batch',
    Buffer.concat([BOM, Buffer.from(JSON.stringify({ documentReferences: [documentId] }))]),
  );
  assert.equal(batch.statusCode, 200, batch.body);
  // A second BOM is a character, not JSON.
  assertInvalidJson(
    await post('/TesteCF/documentos-ecf/status/batch', Buffer.concat([BOM, BOM, Buffer.from('{}')])),
    'syntax',
  );
});

test('a repeated member name is 400 INVALID_JSON duplicate_key with its path, on every JSON route', async () => {
  const cases: Array<[string, string, string]> = [
    [JSON_ROUTES[0]!, '{"type":"E31","type":"E32"}', 'type'],
    [JSON_ROUTES[1]!, '{"type":"E31","lines":[{"name":"a"},{"name":"b","name":"c"}]}', 'lines[1].name'],
    [JSON_ROUTES[2]!, '{"encfs":["E310000000001"],"encfs":["E310000000002"]}', 'encfs'],
    [JSON_ROUTES[3]!, '{"outcome":"sent","outcome":"dispatch_failed"}', 'outcome'],
    [
      JSON_ROUTES[3]!,
      '{"outcome":"sent","evidence":{"arecfXml":"<a/>","arecfXml":"<b/>"}}',
      'evidence.arecfXml',
    ],
  ];
  for (const [url, payload, path] of cases) {
    const body = assertInvalidJson(await post(url, payload), 'duplicate_key');
    assert.equal(body.error.details.path, path, `${url} ${payload}`);
    assert.equal(typeof body.error.details.line, 'number');
  }
  assert.equal(await documentCount(), 1, 'only the BOM test stored a document');
});

test('nesting over 256 levels is 400 INVALID_JSON too_deep; malformed and empty bodies keep their reasons', async () => {
  const deep = `{"encfs":${'['.repeat(300)}${']'.repeat(300)}}`;
  assertInvalidJson(await post(JSON_ROUTES[2]!, deep), 'too_deep');
  for (const url of JSON_ROUTES) {
    assertInvalidJson(await post(url, '{"encfs": ['), 'syntax');
    assertInvalidJson(await post(url, ' \r\n'), 'empty');
  }
});

test('a charset other than UTF-8 is 400 UNSUPPORTED_CONTENT_TYPE; UTF-8 spelled either way is accepted', async () => {
  const payload = JSON.stringify({ encfs: ['E310000000001'] });
  for (const charset of ['iso-8859-1', 'utf-16', 'windows-1252']) {
    const response = await post(JSON_ROUTES[2]!, payload, `application/json; charset=${charset}`);
    assert.equal(response.statusCode, 400);
    const body = ZErrorResponse.parse(response.json());
    assert.equal(body.error.code, 'UNSUPPORTED_CONTENT_TYPE');
    assert.equal(body.error.details.reason, 'charset');
  }
  for (const charset of ['utf-8', 'UTF-8', '"utf8"']) {
    const response = await post(JSON_ROUTES[2]!, payload, `application/json; charset=${charset}`);
    assert.equal(response.statusCode, 200, `${charset}: ${response.body}`);
  }
});

test('U+0000 and lone surrogates in a body that is stored: 400 INVALID_REQUEST unsupported_character (was a 500)', async () => {
  // A reconciliation note is stored in jsonb, which cannot hold either.
  const document = await seedDocument(api.database, { tenantId, encf: 'E310000000777', status: 'accepted' });
  await api.database.receiverDelivery.create({
    data: {
      documentId: document.id,
      tenantId,
      status: 'uncertain',
      attempts: 6,
      targetUrl: 'https://buyer.example/r',
    },
  });
  const reconcile = `/TesteCF/documentos-ecf/${document.id}/entrega-receptor/reconciliar`;
  const cases: Array<[string, string, string, string]> = [
    [reconcile, '{"outcome":"dispatch_failed","note":"a\\u0000b"}', 'note', 'U+0000'],
    [reconcile, '{"outcome":"dispatch_failed","note":"\\ud800x"}', 'note', 'U+D800'],
    [reconcile, '{"outcome":"dispatch_failed","note":"x\\udc00"}', 'note', 'U+DC00'],
    [JSON_ROUTES[2]!, '{"encfs":["E310000000001","E31\\u00000000002"]}', 'encfs[1]', 'U+0000'],
    [JSON_ROUTES[2]!, '{"enc\\ud800fs":[]}', 'enc\ud800fs', 'U+D800'],
  ];
  for (const [url, payload, path, codePoint] of cases) {
    const response = await post(url, payload);
    assert.equal(response.statusCode, 400, `${payload}: ${response.body}`);
    const body = ZErrorResponse.parse(response.json());
    assert.equal(body.error.code, 'INVALID_REQUEST');
    assert.deepEqual(body.error.details, {
      code: 'INVALID_REQUEST',
      reason: 'unsupported_character',
      path,
      codePoint,
    });
  }
  // A pair is one character, and the note is stored.
  const paired = await post(reconcile, '{"outcome":"dispatch_failed","note":"\\ud83d\\ude00 ok"}');
  assert.equal(paired.statusCode, 200, paired.body);
});
