-- The portal's search by name (issue 27): the buyer's name of an issued document, the supplier's
-- name of a received e-CF, with the e-NCF prefix, RNC and amount searches of the received list.
--
-- documents.buyer_name is `RazonSocialComprador` of the validated tree (what the signer signs),
-- written on submit. Existing rows take it from their `submitted` event's tree (placeholders filled,
-- "CONSUMIDOR FINAL" of an anonymous E32, either input format), else from the payload as sent
-- (ECF.Encabezado.Comprador.RazonSocialComprador of the tax authority's JSON, buyer.name of the
-- simplified contract).
ALTER TABLE "documents" ADD COLUMN "buyer_name" TEXT;

UPDATE "documents" d
   SET "buyer_name" = COALESCE(
         (SELECT e."data" #>> '{document,ECF,Encabezado,Comprador,RazonSocialComprador}'
            FROM "document_events" e
           WHERE e."document_id" = d."id" AND e."type" = 'submitted'
           ORDER BY e."id" LIMIT 1),
         d."submitted_payload" #>> '{ECF,Encabezado,Comprador,RazonSocialComprador}',
         d."submitted_payload" #>> '{buyer,name}')
 WHERE d."buyer_name" IS NULL;

-- Received e-CF: the e-NCF prefix (text_pattern_ops: LIKE 'E31%' whatever the collation), the
-- supplier's RNC and the amount range, like the issued list's (0021). Partial on the searched column
-- being set, which every search condition implies (a strict operator), so PostgreSQL proves the
-- predicate from the query; `kind = 'ecf'` would not do: Prisma sends the kind as a parameter cast to
-- the enum at run time (bench/portal showed those indexes unused). Partial indexes also stay out of
-- the schema-drift comparison (Prisma cannot spell an operator class or a trigram index).
CREATE INDEX "inbound_documents_search_encf_idx"
    ON "inbound_documents" ("tenant_id", "environment", "encf" text_pattern_ops)
    WHERE "encf" IS NOT NULL;

CREATE INDEX "inbound_documents_search_issuer_rnc_idx"
    ON "inbound_documents" ("tenant_id", "environment", "issuer_rnc")
    WHERE "issuer_rnc" IS NOT NULL;

CREATE INDEX "inbound_documents_search_total_amount_idx"
    ON "inbound_documents" ("tenant_id", "environment", "total_amount")
    WHERE "total_amount" IS NOT NULL;

-- Names are searched by what they contain, in any letter case (ILIKE '%text%'): a trigram GIN index
-- (pg_trgm, a contrib module like btree_gist of 0013, shipped by Debian's PostgreSQL and the
-- embedded one; trusted, so the database owner may create it). Where the module is missing the
-- migration still applies without these two indexes: the search then filters the tenant's rows of
-- the environment through the list's own index (correct, slower: docs in apps/web/README "Search").
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): name search runs without its trigram indexes', SQLERRM;
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX "documents_search_buyer_name_idx" ON "documents"
               USING gin ("buyer_name" gin_trgm_ops) WHERE "replaced_at" IS NULL';
    EXECUTE 'CREATE INDEX "inbound_documents_search_issuer_name_idx" ON "inbound_documents"
               USING gin ("issuer_name" gin_trgm_ops) WHERE "issuer_name" IS NOT NULL';
  END IF;
END
$$;
