/**
 * A file the service answers (the signed XML, the printed PDF, a ZIP of evidence): read it once,
 * as a stream (`body`, to pipe it somewhere) or whole (`bytes()`, `text()`).
 */
export class EcfDownload {
  readonly status: number;
  /** `application/pdf`, `application/xml`, `application/zip`… as the service sent it. */
  readonly contentType: string;
  /** The file name the service suggests (Content-Disposition), when it suggests one. */
  readonly filename: string | null;
  readonly correlationId: string | null;
  readonly #response: Response;

  constructor(response: Response) {
    this.#response = response;
    this.status = response.status;
    this.contentType = response.headers.get('content-type') ?? 'application/octet-stream';
    this.filename = filenameOf(response.headers.get('content-disposition'));
    this.correlationId = response.headers.get('x-correlation-id');
  }

  /** The bytes as they arrive (a web ReadableStream; Node: `Readable.fromWeb(download.body)`). */
  get body(): ReadableStream<Uint8Array> {
    if (!this.#response.body) throw new Error('The download has no body.');
    return this.#response.body;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.#response.arrayBuffer());
  }

  async text(): Promise<string> {
    return this.#response.text();
  }
}

function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // fall back to the plain parameter
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}
