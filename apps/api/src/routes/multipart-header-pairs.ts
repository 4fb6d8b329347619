/**
 * Counts the header lines of each part of a multipart body as it streams (issue 25, item 10).
 * busboy's `headerPairs` limit only stops *reading* pairs past the limit (the rest are dropped
 * silently, the part still delivered): this counter lets the route refuse such a body instead
 * (`400 multipart_limits`). It watches the same chunks busboy reads and keeps no more than one
 * unfinished line between chunks (a header section is bounded by busboy's 80 KB `maxHeaderSize`;
 * past that the counter stops and busboy's own limit applies).
 */

/** The `boundary` parameter of a multipart Content-Type, or undefined. */
export function multipartBoundaryOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;"]{1,200}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

const MAX_CARRY = 100 * 1024;

/**
 * `push` each chunk of the body; `exceeded` turns true once a part has more than `maxPairs`
 * header lines (continuation lines of a folded header do not count).
 */
export function createPartHeaderCounter(boundary: string, maxPairs: number) {
  const delimiter = `\r\n--${boundary}`;
  // The body may open with the delimiter itself: a virtual CRLF in front makes it one case.
  let carry = '\r\n';
  let state: 'body' | 'delimiter' | 'headers' | 'done' = 'body';
  let pairs = 0;
  let exceeded = false;

  function scan(): void {
    let at = 0;
    for (;;) {
      if (state === 'done') {
        carry = '';
        return;
      }
      if (state === 'body') {
        const found = carry.indexOf(delimiter, at);
        if (found === -1) {
          carry = carry.slice(Math.max(at, carry.length - delimiter.length));
          return;
        }
        at = found + delimiter.length;
        state = 'delimiter';
        continue;
      }
      if (state === 'delimiter') {
        if (carry.length - at < 2) break;
        if (carry.startsWith('--', at)) {
          state = 'done';
          continue;
        }
        const lineEnd = carry.indexOf('\r\n', at);
        if (lineEnd === -1) break;
        at = lineEnd + 2;
        state = 'headers';
        pairs = 0;
        continue;
      }
      const lineEnd = carry.indexOf('\r\n', at);
      if (lineEnd === -1) break;
      if (lineEnd === at) {
        // The empty line: the part's body starts; its CRLF may begin the next delimiter.
        at = lineEnd;
        state = 'body';
        continue;
      }
      const first = carry.charCodeAt(at);
      if (first !== 0x20 && first !== 0x09) {
        pairs += 1;
        if (pairs > maxPairs) {
          exceeded = true;
          state = 'done';
          continue;
        }
      }
      at = lineEnd + 2;
    }
    carry = carry.slice(at);
    if (carry.length > MAX_CARRY) state = 'done';
  }

  return {
    push(chunk: Buffer | string): void {
      if (state === 'done') return;
      carry += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
      scan();
    },
    get exceeded(): boolean {
      return exceeded;
    },
  };
}
