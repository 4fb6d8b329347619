/**
 * Buyer e-mail: once an e-CF is accepted in an environment where the account turned it on, the
 * buyer (`CorreoComprador`) gets an e-mail with a signed link to its printed representation.
 */
export { sendBuyerEmail } from './send-buyer-email.ts';
export { composeBuyerEmail } from './compose-buyer-email.ts';
export {
  BUYER_EMAIL_EVENT_TYPES,
  BUYER_EMAIL_UNCERTAIN_NOTIFICATION_KIND,
  buyerEmailMessageIdOf,
  type TBuyerEmailOptions,
  type TBuyerEmailOutcome,
  type TBuyerEmailReport,
  type TMessageLookup,
} from './buyer-email-rules.ts';
export { createHttpMessageLookup } from './message-lookup.ts';
