import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
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

test('the Message-ID lookup: accepted messages are found by their Message-ID (with or without brackets), with their count', async () => {
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, keep: 1 });
  try {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: catcher.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    const messageId = '<buyer-email.d1.r1@ecf.example>';
    for (const subject of ['uno', 'dos'])
      await transport.sendMail({
        from: 'a@example.com',
        to: 'b@example.com',
        subject,
        text: subject,
        messageId,
      });
    // Kept beyond the messages themselves (keep: 1): the lookup must not forget what was accepted.
    await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'tres', text: 'tres' });
    const base = `http://127.0.0.1:${catcher.httpPort}/api/messages/by-message-id`;
    for (const asked of [messageId, 'buyer-email.d1.r1@ecf.example']) {
      const found = await fetch(`${base}/${encodeURIComponent(asked)}`);
      assert.equal(found.status, 200);
      const body = (await found.json()) as { found: boolean; count: number; envelopeTo: string[] };
      assert.deepEqual([body.found, body.count, body.envelopeTo], [true, 2, ['b@example.com']]);
    }
    assert.equal(catcher.findByMessageId(messageId)?.count, 2);
    const missing = await fetch(`${base}/${encodeURIComponent('<nothing@ecf.example>')}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { found: false, messageId: 'nothing@ecf.example' });
  } finally {
    await catcher.close();
  }
});

test('a slow server (acceptDelayMs): the message is accepted before its 250 answer; a client that gives up never learns it; sessions before acceptance are counted', async () => {
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, acceptDelayMs: 2000 });
  try {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: catcher.smtpPort,
      secure: false,
      ignoreTLS: true,
      socketTimeout: 500,
    });
    await assert.rejects(
      transport.sendMail({
        from: 'a@example.com',
        to: 'b@example.com',
        subject: 'lento',
        text: 'lento',
        messageId: '<slow@ecf.example>',
      }),
      /timeout/i,
    );
    assert.equal(catcher.findByMessageId('slow@ecf.example')?.count, 1);

    // A connection in the SMTP dialogue has no accepted message yet; closed, it counts no more.
    assert.equal(catcher.sessionsBeforeAcceptance(), 0);
    const socket = net.connect(catcher.smtpPort, '127.0.0.1');
    await new Promise((resolve) => socket.once('data', resolve));
    assert.equal(catcher.sessionsBeforeAcceptance(), 1);
    socket.destroy();
    const deadline = Date.now() + 5000;
    while (catcher.sessionsBeforeAcceptance() > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(catcher.sessionsBeforeAcceptance(), 0);
  } finally {
    await catcher.close();
  }
});
