import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kindOfReason, DEFINITE_REASONS, TRANSIENT_REASONS, TaxauthError } from './errors.ts';
import { messagesOfBody, statusFailure } from './http.ts';
import { buildXmlMultipart } from './multipart.ts';
import { fileNameOf } from './client.ts';
import {
  resultStatusOf,
  statusFromEstado,
  ZDirectoryAnswer,
  ZResultAnswer,
  ZTrackIdsAnswer,
  ZCommercialApprovalAnswer,
  ZAnnulmentAnswer,
} from './schemas.ts';

test('Consulta Resultado: the real sample (codigo as text, encf lower case, US date) parses', () => {
  const sample = {
    trackId: 'd2b6e27c-3908-46f3-afaa-2207b9501b4b',
    codigo: '1',
    estado: 'Aceptado',
    rnc: '130862346',
    encf: 'E310005000201',
    secuenciaUtilizada: true,
    fechaRecepcion: '8/15/2023 6:06:57 AM',
    mensajes: [{ valor: '', codigo: 0 }],
  };
  const parsed = ZResultAnswer.parse(sample);
  assert.equal(parsed.codigo, 1);
  assert.equal(parsed.encf, 'E310005000201');
  assert.equal(parsed.fechaRecepcion, '8/15/2023 6:06:57 AM');
  assert.deepEqual(parsed.mensajes, [{ valor: '', codigo: 0 }]);
});

test('Consulta Resultado: the documented eNCF spelling and PascalCase keys map to DGII names', () => {
  const parsed = ZResultAnswer.parse({
    TrackId: 'x',
    Codigo: 2,
    Estado: 'Rechazado',
    RNC: '1',
    eNCF: 'E310000000001',
    SecuenciaUtilizada: 'false',
    Mensajes: null,
  });
  assert.equal(parsed.trackId, 'x');
  assert.equal(parsed.codigo, 2);
  assert.equal(parsed.encf, 'E310000000001');
  assert.equal(parsed.rnc, '1');
  assert.equal(parsed.secuenciaUtilizada, false);
  assert.deepEqual(parsed.mensajes, []);
});

test('Consulta Resultado without codigo is not accepted', () => {
  assert.equal(ZResultAnswer.safeParse({ trackId: 'x', estado: 'Aceptado' }).success, false);
  assert.equal(ZResultAnswer.safeParse({ trackId: 'x', codigo: 'uno' }).success, false);
});

test('statuses: codes and both casings of En Proceso; only 1, 2 and 4 are final', () => {
  assert.equal(resultStatusOf(3, undefined), 'in_process');
  assert.equal(statusFromEstado('En proceso'), 'in_process');
  assert.equal(statusFromEstado('En Proceso'), 'in_process');
  assert.equal(statusFromEstado('Aceptado Condicional'), 'accepted_conditional');
  assert.equal(statusFromEstado('algo nuevo'), 'unknown');
  assert.equal(resultStatusOf(undefined, 'Rechazado'), 'rejected');
});

test('directory and trackIds: a single object is normalised to an array', () => {
  const one = {
    nombre: 'A',
    rnc: '131880738',
    urlRecepcion: 'https://a/fe/recepcion',
    urlAceptacion: 'https://a/fe/aprobacion',
    urlOpcional: null,
  };
  assert.deepEqual(ZDirectoryAnswer.parse(one), [{ ...one, urlOpcional: undefined }]);
  assert.equal(ZDirectoryAnswer.parse([one, one]).length, 2);
  assert.deepEqual(ZTrackIdsAnswer.parse({ trackId: 't', estado: 'Aceptado', fechaRecepcion: 'f' }), [
    { trackId: 't', estado: 'Aceptado', fechaRecepcion: 'f' },
  ]);
});

test('ACECF and ANECF answers keep codigo and string messages as sent', () => {
  const approval = ZCommercialApprovalAnswer.parse({
    mensaje: ['Aprobación comercial aprobada'],
    estado: 'Aprobación Comercial Aprobada.',
    codigo: '01',
  });
  assert.equal(approval.codigo, '01');
  assert.deepEqual(approval.mensaje, ['Aprobación comercial aprobada']);
  const annulment = ZAnnulmentAnswer.parse({
    rnc: '131880738',
    codigo: 1,
    nombre: 'X',
    mensajes: ['Las secuencias fueron anuladas correctamente.'],
  });
  assert.deepEqual(annulment.mensajes, ['Las secuencias fueron anuladas correctamente.']);
});

test('messagesOfBody keeps the mensajes array items verbatim; falls back to error/mensaje; non-JSON gives none', () => {
  assert.deepEqual(
    messagesOfBody('{"mensajes":[{"codigo":"3","valor":"El RNC del certificado no está delegado"}]}'),
    [{ codigo: '3', valor: 'El RNC del certificado no está delegado' }],
  );
  assert.deepEqual(messagesOfBody('{"trackId":null,"error":"E1","mensaje":"M1"}'), [
    { valor: 'E1' },
    { valor: 'M1' },
  ]);
  assert.deepEqual(messagesOfBody('{"mensajes":["a","b"]}'), [{ valor: 'a' }, { valor: 'b' }]);
  assert.equal(messagesOfBody('Firma del certificado invalida'), undefined);
});

test('statusFailure classifies by status and by the delegation text', () => {
  const request = {
    service: 'recepcion' as const,
    method: 'POST' as const,
    url: new URL('http://x/testecf/recepcion/api/facturaselectronicas'),
  };
  const of = (status: number, body = '') => statusFailure(request, { status, body, contentType: '' });
  assert.deepEqual([of(500).reason, of(500).kind], ['http_5xx', 'transient']);
  assert.deepEqual([of(503).reason, of(503).kind], ['http_5xx', 'transient']);
  assert.deepEqual([of(429).reason, of(429).kind], ['rate_limited', 'transient']);
  assert.deepEqual([of(408).reason, of(408).kind], ['http_408', 'transient']);
  assert.deepEqual(
    [of(400, '{"mensajes":[{"valor":"x","codigo":1}]}').reason, of(400).kind],
    ['rejected', 'definite'],
  );
  assert.equal(
    of(400, '{"mensajes":[{"valor":"x","codigo":1}]}').body,
    '{"mensajes":[{"valor":"x","codigo":1}]}',
  );
  assert.equal(
    of(403, 'El RNC del certificado no está delegado para realizar transacciones').reason,
    'not_delegated',
  );
  assert.equal(of(403).reason, 'forbidden');
  assert.equal(of(404).reason, 'not_found');
  assert.equal(of(418).reason, 'http_4xx');
  assert.equal(of(401).kind, 'definite');
});

test('every reason belongs to exactly one kind', () => {
  for (const reason of TRANSIENT_REASONS) assert.equal(kindOfReason(reason), 'transient');
  for (const reason of DEFINITE_REASONS) assert.equal(kindOfReason(reason), 'definite');
  assert.equal(new TaxauthError({ reason: 'timeout', service: 'recepcion', message: 'm' }).kind, 'transient');
});

test('multipart: one part named xml, Content-Length equals the byte length (UTF-8 counted in bytes)', () => {
  const xml = '<ECF><NombreItem>Artículo ñ</NombreItem></ECF>';
  const multipart = buildXmlMultipart(xml, '131880738E310000000001.xml');
  assert.equal(multipart.contentLength, String(multipart.body.length));
  assert.ok(multipart.body.length > xml.length + 10);
  const boundary = multipart.contentType.replace('multipart/form-data; boundary=', '');
  const text = multipart.body.toString('utf8');
  assert.ok(
    text.startsWith(
      `--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="131880738E310000000001.xml"\r\n`,
    ),
  );
  assert.ok(text.includes(`\r\n\r\n${xml}\r\n--${boundary}--\r\n`));
  assert.throws(() => buildXmlMultipart(xml, 'a"b.xml'), TypeError);
});

test('file names follow DGII convention; missing fields are a definite invalid_request', () => {
  assert.equal(
    fileNameOf(
      '<ECF><Emisor><RNCEmisor>131880738</RNCEmisor></Emisor><IdDoc><eNCF>E310000000001</eNCF></IdDoc></ECF>',
      'recepcion',
      ['RNCEmisor', 'eNCF'],
    ),
    '131880738E310000000001.xml',
  );
  assert.throws(
    () => fileNameOf('<ECF/>', 'recepcion', ['RNCEmisor', 'eNCF']),
    (error: unknown) =>
      error instanceof TaxauthError && error.reason === 'invalid_request' && error.kind === 'definite',
  );
});
