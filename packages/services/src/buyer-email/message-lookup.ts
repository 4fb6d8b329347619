/**
 * The message lookup over HTTP: SMTP has no way to ask a server "did you accept Message-ID X?",
 * but mail providers have a message-search API (SES, Postmark, SendGrid) and our local mail
 * catcher models one. The URL template names the message with `{messageId}` (URL-encoded, without
 * angle brackets): 200 means accepted, 404 means not there, anything else means "cannot tell now".
 */
import type { TMessageLookup } from './buyer-email-rules.ts';

export const MESSAGE_ID_PLACEHOLDER = '{messageId}';

/** A lookup asking `urlTemplate` (e.g. `http://127.0.0.1:3003/api/messages/by-message-id/{messageId}`). */
export function createHttpMessageLookup(options: {
  urlTemplate: string;
  timeoutMs?: number;
}): TMessageLookup {
  if (!options.urlTemplate.includes(MESSAGE_ID_PLACEHOLDER))
    throw new TypeError(`the message lookup URL must contain ${MESSAGE_ID_PLACEHOLDER}`);
  return async (messageId) => {
    const bare = messageId.trim().replace(/^<(.*)>$/, '$1');
    const url = options.urlTemplate.split(MESSAGE_ID_PLACEHOLDER).join(encodeURIComponent(bare));
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    // The body is not needed: the status says it all (and is consumed so the socket is reused).
    await response.arrayBuffer();
    if (response.status === 200) return true;
    if (response.status === 404) return false;
    throw new Error(`the message lookup answered HTTP ${response.status}`);
  };
}
