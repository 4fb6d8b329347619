/** The catcher's two HTML pages: the list of caught messages and one message. No script, no assets. */
import type { TCaughtMessage } from './mail-catcher.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Escaped text with its http(s) links made clickable (the buyer's link to the PDF). */
export function linkify(text: string): string {
  return escapeHtml(text).replace(
    /https?:\/\/[^\s<>"']+/g,
    (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`,
  );
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d0d7de;vertical-align:top}th{background:#f6f8fa}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:1rem;border-radius:6px}iframe{width:100%;height:28rem;border:1px solid #d0d7de}
.muted{color:#59636e}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function renderMessagesPage(messages: TCaughtMessage[]): string {
  const rows = messages
    .map(
      (message) =>
        `<tr><td>${message.id}</td><td>${escapeHtml(message.receivedAt.toISOString())}</td><td>${escapeHtml(message.from)}</td>` +
        `<td>${escapeHtml(message.to || message.envelopeTo.join(', '))}</td><td><a href="/messages/${message.id}">${escapeHtml(message.subject || '(sin asunto)')}</a></td></tr>`,
    )
    .join('');
  const table = messages.length
    ? `<table><thead><tr><th>#</th><th>Received</th><th>From</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No messages yet. Everything sent to this SMTP server shows up here (reload the page).</p>';
  return layout(
    'Mail catcher',
    `<h1>Mail catcher</h1><p class="muted">Local SMTP server: messages are kept in memory only and never delivered.</p>${table}`,
  );
}

export function renderMessagePage(message: TCaughtMessage): string {
  const header = (label: string, value: string) => `<tr><th>${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const body =
    `<p><a href="/">&larr; all messages</a> · <a href="/messages/${message.id}/raw">raw message</a></p>` +
    `<h1>${escapeHtml(message.subject || '(sin asunto)')}</h1><table>` +
    header('From', message.from) +
    header('To', message.to) +
    header('Date', message.date) +
    header('Envelope', `${message.envelopeFrom ?? '<>'} → ${message.envelopeTo.join(', ')}`) +
    header('Parts', message.parts.join(', ')) +
    '</table>' +
    (message.text !== null ? `<h2>Text</h2><pre>${linkify(message.text)}</pre>` : '') +
    (message.html !== null
      ? `<h2>HTML</h2><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" src="/messages/${message.id}/html" title="HTML body"></iframe>`
      : '');
  return layout(message.subject || 'Message', body);
}
