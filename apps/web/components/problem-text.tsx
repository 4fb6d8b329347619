/**
 * A problem a system recorded (a document's last error, a delivery's, an attempt's), said in plain
 * Spanish: the catalogue's sentence for its code first, and what the system wrote as it wrote it (the
 * tax authority's HTML error page, an English transport message) behind a collapsed "Detalles
 * técnicos". Server- and client-safe (no hooks). Pass `text` as stored (`CODE: message`, a bare code,
 * or raw text) or `code` and `message` apart.
 */
import { TechnicalDetails } from '@ecf/ui';
import { problemSentenceOf, splitCodedText } from '../lib/catalogue.ts';

export function ProblemText(props: {
  text?: string | null;
  code?: string | null;
  message?: string | null;
  /** Catalogue sections that may name the code, looked up in order. */
  sections: readonly Readonly<Record<string, string>>[];
  /** The sentence when no section names the code (or there is none). */
  fallback: string;
}) {
  const split =
    props.text === undefined || props.text === null
      ? { code: props.code ?? null, message: props.message ?? '' }
      : splitCodedText(props.text);
  const sentence = problemSentenceOf(split.code, props.sections, props.fallback);
  const known =
    split.code !== null && props.sections.some((section) => Object.hasOwn(section, split.code ?? ''));
  // The code itself is technical only when nothing names it; the message always is.
  const technical = [known ? '' : (split.code ?? ''), split.message].filter((part) => part !== '').join(': ');
  return <TechnicalDetails technical={technical}>{sentence}</TechnicalDetails>;
}
