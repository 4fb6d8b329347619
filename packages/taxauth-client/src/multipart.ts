/**
 * The multipart body DGII expects: one file part named `xml`, built as one Buffer so that the
 * request carries a real `Content-Length` (DGII answers "Multipart cannot be empty" to a chunked
 * upload; FACTS §1.1, §6.5).
 */
import { randomBytes } from 'node:crypto';

export type TMultipartBody = {
  body: Buffer<ArrayBuffer>;
  /** `multipart/form-data; boundary=...` */
  contentType: string;
  /** `body.length` as text, for the `Content-Length` header. */
  contentLength: string;
};

/** Builds `multipart/form-data` with the single part `xml` (`text/xml`, UTF-8) named `fileName`. */
export function buildXmlMultipart(xml: string, fileName: string): TMultipartBody {
  if (/["\r\n]/.test(fileName))
    throw new TypeError(`Invalid multipart file name: ${JSON.stringify(fileName)}`);
  const content = Buffer.from(xml, 'utf8');
  // A boundary that occurs in the content would cut the part short; pick another.
  let boundary = newBoundary();
  while (content.includes(boundary)) boundary = newBoundary();
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="xml"; filename="${fileName}"\r\n` +
      'Content-Type: text/xml; charset=utf-8\r\n\r\n',
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const body = Buffer.concat([head, content, tail]);
  return {
    body,
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: String(body.length),
  };
}

function newBoundary(): string {
  return `----ecf-${randomBytes(16).toString('hex')}`;
}
