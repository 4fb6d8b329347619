/** @ecf/mail-catcher: a local SMTP server that keeps messages in memory and shows them on a page. */
export {
  startMailCatcher,
  type TAcceptedMessageId,
  type TCaughtMessage,
  type TMailCatcher,
  type TMailCatcherOptions,
} from './mail-catcher.ts';
export { parseMessage, decodeQuotedPrintable, decodeEncodedWords, type TParsedMessage } from './mime.ts';
