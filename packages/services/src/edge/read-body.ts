/**
 * The body of a fetch `Request` (the portal's tRPC handler and route handlers) read under a route's
 * limits: a declared `Content-Length` over `bodyBytes` is refused before reading; the stream is
 * counted as it arrives and cancelled at the first byte over the limit (a 300 MB body never
 * becomes 300 MB of memory); the whole body must arrive within `bodyTimeoutMs`.
 */
import { AppError } from '../shared/errors.ts';
import { bodyTimedOut, bodyTooLarge, readJsonBody, type TReadJsonOptions } from './json-reader.ts';
import type { TEdgeLimits } from './limits.ts';

export async function readRequestBytes(
  request: Request,
  limits: Pick<TEdgeLimits, 'bodyBytes' | 'bodyTimeoutMs'>,
): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limits.bodyBytes) throw bodyTooLarge(limits.bodyBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut(limits.bodyTimeoutMs)), limits.bodyTimeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      received += value.byteLength;
      if (received > limits.bodyBytes) throw bodyTooLarge(limits.bodyBytes);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof AppError) throw error;
    throw new AppError('INVALID_REQUEST', 'The request body could not be read.', {
      details: { reason: 'body_unreadable' },
    });
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** {@link readRequestBytes} then {@link readJsonBody}: the value of a fetch Request's JSON body. */
export async function readRequestJson(
  request: Request,
  limits: TEdgeLimits,
  options: Omit<TReadJsonOptions, 'limits' | 'contentType'> = {},
): Promise<{ text: string; value: unknown }> {
  const bytes = await readRequestBytes(request, limits);
  return readJsonBody(bytes, { ...options, limits, contentType: request.headers.get('content-type') });
}
