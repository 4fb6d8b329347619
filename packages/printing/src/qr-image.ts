/**
 * The QR of the timbre URL as vector drawing data. Profiling showed that a PNG data URL costs about a
 * quarter of a one-page render (react-pdf decodes the PNG with png-js and re-deflates it on every
 * document); one filled path draws the same symbol for a fraction of that, prints sharp at any size
 * and keeps the PDF smaller. Recent URLs are cached because a document is often printed more than
 * once (download, buyer link, batch ZIP).
 */
import QRCode from 'qrcode';

/** A QR symbol ready to draw: `size` modules square including the quiet zone, dark modules as one SVG path. */
export type TQrSymbol = { readonly size: number; readonly path: string };

/** The standard quiet zone: 4 modules on each side. */
const QUIET_ZONE = 4;
const CACHE_SIZE = 256;
const cache = new Map<string, TQrSymbol>();

/**
 * The QR of `url` (byte mode, error correction M, smallest version that fits) as a path of its dark
 * modules: each horizontal run of dark modules in a row is one rectangle.
 */
export function qrSymbolOf(url: string): TQrSymbol {
  const cached = cache.get(url);
  if (cached !== undefined) {
    // Refresh its place so the map's insertion order stays least-recently-used first.
    cache.delete(url);
    cache.set(url, cached);
    return cached;
  }
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    let column = 0;
    while (column < modules.size) {
      if (modules.get(row, column) === 0) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column) !== 0) column += 1;
      parts.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${column - start}v1h${start - column}z`);
    }
  }
  const symbol: TQrSymbol = { size: modules.size + 2 * QUIET_ZONE, path: parts.join('') };
  cache.set(url, symbol);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  return symbol;
}
