-- The portal's search of the issued list (issue 27): e-NCF prefix, exact TrackId, exact buyer RNC
-- and an amount range, within one tenant and environment. Partial on `replaced_at IS NULL` like the
-- list itself (receipts replaced by a certification restart never show), which also keeps them out
-- of the schema-drift comparison: Prisma cannot spell an operator class on a btree.
--
-- text_pattern_ops lets `encf LIKE 'E31%'` use the index whatever the database's collation.
CREATE INDEX "documents_search_encf_idx"
    ON "documents" ("tenant_id", "environment", "encf" text_pattern_ops)
    WHERE "replaced_at" IS NULL;

CREATE INDEX "documents_search_track_id_idx"
    ON "documents" ("tenant_id", "environment", "track_id")
    WHERE "replaced_at" IS NULL;

CREATE INDEX "documents_search_buyer_rnc_idx"
    ON "documents" ("tenant_id", "environment", "buyer_rnc")
    WHERE "replaced_at" IS NULL;

CREATE INDEX "documents_search_total_amount_idx"
    ON "documents" ("tenant_id", "environment", "total_amount")
    WHERE "replaced_at" IS NULL;
