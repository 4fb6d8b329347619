import { AppError } from '@ecf/services';

/**
 * The exact text of the one member of a JSON object body (`{"document": ...}`), so the submission
 * inside keeps its bytes as the ERP wrote them (decimal text such as `1.10`, the replay
 * fingerprint). The body was already parsed (valid JSON, no duplicate keys) and checked to hold
 * only `name`: the value runs from after the member's colon to the object's closing brace.
 */
export function rawMemberText(rawBody: string | undefined, name: string): string {
  const missing = () =>
    new AppError('INVALID_JSON', 'Send the request as a JSON body (Content-Type: application/json).', {
      details: { reason: 'body_missing' },
    });
  if (rawBody === undefined) throw missing();
  let index = rawBody.indexOf('{');
  if (index < 0) throw missing();
  index += 1;
  while (/\s/.test(rawBody[index] ?? '')) index += 1;
  if (rawBody[index] !== '"') throw missing();
  // The member's name: a JSON string (escapes included) ends at the first unescaped quote.
  let end = index + 1;
  while (end < rawBody.length && rawBody[end] !== '"') end += rawBody[end] === '\\' ? 2 : 1;
  const key = JSON.parse(rawBody.slice(index, end + 1)) as string;
  if (key !== name) throw missing();
  const colon = rawBody.indexOf(':', end + 1);
  const close = rawBody.lastIndexOf('}');
  if (colon < 0 || close < colon) throw missing();
  return rawBody.slice(colon + 1, close).trim();
}
