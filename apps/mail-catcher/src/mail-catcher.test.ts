import { test } from 'node:test';
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import { startMailCatcher } from './mail-catcher.ts';
import { decodeEncodedWords, decodeQuotedPrintable, parseMessage } from './mime.ts';

test('catches what nodemailer sends: envelope, decoded subject, text and HTML bodies, page and raw', async () => {
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  try {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: catcher.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    const link = `http://127.0.0.1:3000/ri/${'a'.repeat(120)}`;
    await transport.sendMail({
      from: 'Facturación <no-reply@ecf.example>',
      to: 'compras@lospinos.com.do',
      subject: 'Factura de Crédito Fiscal Electrónica E310000000101',
      text: `Descargue su comprobante: ${link}\nGracias por su compra, señor Núñez.`,
      html: `<p>Descargue su comprobante: <a href="${link}">aquí</a></p>`,
    });
    const message = await catcher.waitForMessage(
      (candidate) => candidate.envelopeTo.includes('compras@lospinos.com.do'),
      5000,
    );
    assert.equal(message.subject, 'Factura de Crédito Fiscal Electrónica E310000000101');
    assert.equal(message.envelopeFrom, 'no-reply@ecf.example');
    assert.match(message.from, /Facturación/);
    assert.ok(message.text?.includes(link), message.text ?? '');
    assert.ok(message.text?.includes('señor Núñez'));
    assert.ok(message.html?.includes(`href="${link}"`));
    assert.deepEqual(message.parts, ['text/plain', 'text/html']);

    const base = `http://127.0.0.1:${catcher.httpPort}`;
    const list = await fetch(`${base}/`);
    assert.equal(list.status, 200);
    assert.match(await list.text(), /Factura de Cr&#233;dito|Factura de Crédito/);
    const page = await (await fetch(`${base}/messages/${message.id}`)).text();
    assert.ok(page.includes(`<a href="${link}"`), 'the link is clickable on the message page');
    assert.ok((await (await fetch(`${base}/messages/${message.id}/raw`)).text()).includes('Subject:'));
    const api = (await (await fetch(`${base}/api/messages`)).json()) as Array<{ subject: string }>;
    assert.equal(api[0]?.subject, message.subject);
    assert.equal((await fetch(`${base}/messages/999`)).status, 404);
  } finally {
    await catcher.close();
  }
});

test('waitForMessage times out when nothing matching arrives; keeps only the last N', async () => {
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, keep: 2 });
  try {
    await assert.rejects(
      catcher.waitForMessage(() => true, 100),
      /no matching message/,
    );
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: catcher.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    for (const subject of ['uno', 'dos', 'tres'])
      await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject, text: subject });
    assert.deepEqual(
      catcher.messages().map((message) => message.subject),
      ['dos', 'tres'],
    );
  } finally {
    await catcher.close();
  }
});

test('MIME decoding: quoted-printable soft breaks, encoded words, base64 parts', () => {
  assert.equal(decodeQuotedPrintable('Cr=C3=A9dito =\r\nfiscal').toString('utf8'), 'Crédito fiscal');
  assert.equal(decodeEncodedWords('=?UTF-8?Q?Cr=C3=A9dito?= =?UTF-8?B?IGZpc2NhbA==?='), 'Crédito fiscal');
  const raw =
    'From: a@example.com\r\nSubject: =?UTF-8?B?w5FhbmR1?=\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n' +
    '--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
    `${Buffer.from('Hola, señor').toString('base64')}\r\n--b1\r\nContent-Type: application/pdf\r\n\r\nJVBERi0=\r\n--b1--\r\n`;
  const parsed = parseMessage(raw);
  assert.equal(parsed.subject, 'Ñandu');
  assert.equal(parsed.text, 'Hola, señor');
  assert.deepEqual(parsed.parts, ['text/plain', 'application/pdf']);
});
