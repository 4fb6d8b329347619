/** The mail catcher of the stack, over its HTTP API (the e-mails the portal sends). */
import { stack } from './stack.ts';

type TMessage = {
  id: number;
  envelopeTo: string[];
  subject: string;
  text: string | null;
  receivedAt: string;
};

async function messages(): Promise<TMessage[]> {
  const response = await fetch(`${stack().mailCatcherUrl}/api/messages`);
  if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
  return (await response.json()) as TMessage[];
}

export const mailCatcher = {
  /**
   * The first link in the newest message to `to` that matches `pattern` (waits up to `timeoutMs`
   * for it to arrive): e.g. findLink(user.email, /\/invitations\/accept\?token=/).
   */
  async findLink(to: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await messages())
        .filter((message) => message.envelopeTo.includes(to.toLowerCase()))
        .reverse()
        .flatMap((message) => (message.text ?? '').split(/\s+/))
        .find((word) => /^https?:\/\//.test(word) && pattern.test(word));
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`no message to ${to} with a link matching ${String(pattern)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  },
};
