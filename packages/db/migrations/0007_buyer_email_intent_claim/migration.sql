-- Hand-written: the buyer e-mail records its intent (`buyer_email_intent`, with the attempt number
-- and the deterministic Message-ID) before the SMTP transaction. One intent per attempt and
-- document: two runs that read the same history cannot both claim the attempt (the second insert
-- finds the conflict and does not send). Prisma cannot express a partial expression index.
CREATE UNIQUE INDEX "document_events_buyer_email_intent_attempt" ON "document_events"("document_id", (("data"->>'attempt')))
  WHERE "type" = 'buyer_email_intent';
