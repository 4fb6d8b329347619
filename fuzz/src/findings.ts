/**
 * What the fuzzer found: each finding names the surface, the operation or procedure, the case,
 * the request and the answer (and the server's log lines of that request, stack included), so a
 * failure can be read without re-running it; `--seed` replays it exactly.
 */
import { Writable } from 'node:stream';

export type TFinding = {
  surface: 'api' | 'portal';
  /** `POST /{environment}/documentos-ecf (submitDocument)` or `tryIt.preflight (mutation)`. */
  target: string;
  /** What is wrong: `5xx`, `undeclared status`, `error shape`, `undeclared code`, `response schema`. */
  rule: string;
  caseLabel: string;
  request: string;
  answer: string;
  log: string[];
};

/** Collects log lines (pino JSON) so a 5xx can be shown with its stack. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    const text = chunk.toString('utf8');
    this.lines.push(text);
    if (this.lines.length > 20_000) this.lines.splice(0, 10_000);
    callback();
  }
  /** The log lines that mention `needle` (a correlation id). */
  linesOf(needle: string): string[] {
    return this.lines.filter((line) => line.includes(needle)).map((line) => line.trim().slice(0, 4000));
  }
}

/** Printable text of bytes: UTF-8 where valid, escapes for the rest, cut at `max` characters. */
export function preview(bytes: Buffer | string | undefined, max = 600): string {
  if (bytes === undefined) return '(none)';
  const text = typeof bytes === 'string' ? bytes : new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const escaped = JSON.stringify(text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);
  return escaped.slice(1, -1);
}

export function printFindings(findings: readonly TFinding[], limit: number): void {
  const groups = new Map<string, TFinding[]>();
  for (const finding of findings) {
    const key = `${finding.surface} ${finding.target}: ${finding.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  console.error(`\nfuzz: ${findings.length} finding(s) in ${groups.size} group(s)`);
  let printed = 0;
  for (const [key, group] of groups) {
    console.error(`\n== ${key} (${group.length} case(s))`);
    for (const finding of group.slice(0, printed < limit ? 2 : 0)) {
      printed += 1;
      console.error(`  case:    ${finding.caseLabel}`);
      console.error(`  request: ${finding.request}`);
      console.error(`  answer:  ${finding.answer}`);
      for (const line of finding.log.slice(0, 6)) console.error(`  log:     ${line}`);
    }
  }
}
