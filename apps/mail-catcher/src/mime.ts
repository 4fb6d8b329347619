/**
 * Just enough MIME to show what nodemailer sends: headers (unfolded, RFC 2047 encoded words
 * decoded), multipart bodies split on their boundary, and quoted-printable or base64 parts decoded
 * to text. Not a general mail parser: attachments are listed by type only.
 */

export type TMimeHeaders = Map<string, string>;

export type TParsedMessage = {
  headers: TMimeHeaders;
  subject: string;
  from: string;
  to: string;
  date: string;
  /** The first `text/plain` part, decoded. */
  text: string | null;
  /** The first `text/html` part, decoded. */
  html: string | null;
  /** Content types of every leaf part, in order. */
  parts: string[];
};

/** Splits a raw message (CRLF or LF) into its header block and body. */
function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

/** Header names lower-cased; folded lines joined; the first occurrence wins. */
export function parseHeaders(head: string): TMimeHeaders {
  const headers: TMimeHeaders = new Map();
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** `type/subtype; name=value; ...` → the lower-cased type and its parameters. */
export function parseContentType(value: string | undefined): {
  type: string;
  parameters: Map<string, string>;
} {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const parameters = new Map<string, string>();
  for (const parameter of rest) {
    const equals = parameter.indexOf('=');
    if (equals <= 0) continue;
    parameters.set(
      parameter.slice(0, equals).trim().toLowerCase(),
      parameter
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return { type: type.trim().toLowerCase(), parameters };
}

/** Quoted-printable (RFC 2045 §6.7) to bytes: soft line breaks removed, `=XX` decoded. */
export function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index += 1) {
    const character = joined[index] ?? '';
    const hex = joined.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      for (const byte of Buffer.from(character, 'utf8')) bytes.push(byte);
    }
  }
  return Buffer.from(bytes);
}

function toText(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) of a header value, decoded. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_whole, charset: string, encoding: string, text: string) => {
        const bytes =
          encoding.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : decodeQuotedPrintable(text.replace(/_/g, ' '));
        return toText(bytes, charset);
      },
    );
}

function decodeBody(body: string, headers: TMimeHeaders): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const { parameters } = parseContentType(headers.get('content-type'));
  if (encoding === 'base64')
    return toText(Buffer.from(body.replace(/\s+/g, ''), 'base64'), parameters.get('charset'));
  if (encoding === 'quoted-printable') return toText(decodeQuotedPrintable(body), parameters.get('charset'));
  return body;
}

type TLeaf = { type: string; text: string };

function collectLeaves(head: string, body: string, leaves: TLeaf[], depth: number): void {
  const headers = parseHeaders(head);
  const { type, parameters } = parseContentType(headers.get('content-type'));
  const boundary = parameters.get('boundary');
  if (type.startsWith('multipart/') && boundary && depth < 8) {
    const delimiter = `--${boundary}`;
    const sections = body.split(
      new RegExp(`\\r?\\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*\\r?\\n?`),
    );
    // The preamble (before the first delimiter) and the epilogue (after the last) are not parts.
    for (const section of sections.slice(1)) {
      if (section.trim() === '') continue;
      const part = splitHead(section);
      collectLeaves(part.head, part.body, leaves, depth + 1);
    }
    return;
  }
  leaves.push({ type, text: type.startsWith('text/') ? decodeBody(body, headers) : '' });
}

/** Parses a raw RFC 5322 message into what the catcher's page shows. */
export function parseMessage(raw: string): TParsedMessage {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const leaves: TLeaf[] = [];
  collectLeaves(head, body, leaves, 0);
  const header = (name: string) => decodeEncodedWords(headers.get(name) ?? '');
  return {
    headers,
    subject: header('subject'),
    from: header('from'),
    to: header('to'),
    date: headers.get('date') ?? '',
    text: leaves.find((leaf) => leaf.type === 'text/plain')?.text ?? null,
    html: leaves.find((leaf) => leaf.type === 'text/html')?.text ?? null,
    parts: leaves.map((leaf) => leaf.type),
  };
}
