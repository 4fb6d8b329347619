-- CreateEnum
CREATE TYPE "AnnulmentState" AS ENUM ('built', 'sending', 'accepted', 'rejected', 'uncertain', 'failed');

-- CreateTable
CREATE TABLE "sequence_ranges" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" SMALLINT NOT NULL,
    "prefix" CHAR(3) NOT NULL,
    "first_encf" VARCHAR(13) NOT NULL,
    "last_encf" VARCHAR(13) NOT NULL,
    "first_number" BIGINT NOT NULL,
    "last_number" BIGINT NOT NULL,
    "sequence_expiration_date" DATE NOT NULL,
    "registered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sequence_ranges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "annulments" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "idempotency_key" VARCHAR(200) NOT NULL,
    "request_fingerprint" CHAR(64) NOT NULL,
    "request" JSONB NOT NULL,
    "state" "AnnulmentState" NOT NULL DEFAULT 'built',
    "signed_xml" TEXT,
    "taxauth_answer" JSONB,
    "covered_documents" JSONB,
    "covered_settled_at" TIMESTAMPTZ(3),
    "reconciliation" JSONB,
    "reconciliation_artifact_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "annulments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "annulment_ranges" (
    "id" BIGSERIAL NOT NULL,
    "annulment_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" SMALLINT NOT NULL,
    "prefix" CHAR(3) NOT NULL,
    "first_encf" VARCHAR(13) NOT NULL,
    "last_encf" VARCHAR(13) NOT NULL,
    "first_number" BIGINT NOT NULL,
    "last_number" BIGINT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "annulment_ranges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sequence_ranges_tenant_id_environment_prefix_first_number_idx" ON "sequence_ranges"("tenant_id", "environment", "prefix", "first_number");

-- CreateIndex
CREATE INDEX "annulments_state_updated_at_idx" ON "annulments"("state", "updated_at");

-- CreateIndex
CREATE INDEX "annulments_tenant_id_environment_created_at_idx" ON "annulments"("tenant_id", "environment", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "annulments_tenant_id_environment_idempotency_key_key" ON "annulments"("tenant_id", "environment", "idempotency_key");

-- CreateIndex
CREATE INDEX "annulment_ranges_annulment_id_idx" ON "annulment_ranges"("annulment_id");

-- CreateIndex
CREATE INDEX "annulment_ranges_tenant_id_environment_prefix_first_number_idx" ON "annulment_ranges"("tenant_id", "environment", "prefix", "first_number");

-- AddForeignKey
ALTER TABLE "sequence_ranges" ADD CONSTRAINT "sequence_ranges_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annulments" ADD CONSTRAINT "annulments_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annulment_ranges" ADD CONSTRAINT "annulment_ranges_annulment_id_fkey" FOREIGN KEY ("annulment_id") REFERENCES "annulments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------------------------
-- Hand-written: ranges are well formed and never overlap; the emission ⇄ annulment race.
-- See packages/services/README.md, "Sequences and annulments".

CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE "sequence_ranges"
  ADD CONSTRAINT "sequence_ranges_bounds_check" CHECK (first_number >= 1 AND first_number <= last_number),
  ADD CONSTRAINT "sequence_ranges_no_overlap" EXCLUDE USING gist (
    tenant_id WITH =, environment WITH =, prefix WITH =, int8range(first_number, last_number, '[]') WITH &&);

ALTER TABLE "annulment_ranges"
  ADD CONSTRAINT "annulment_ranges_bounds_check" CHECK (first_number >= 1 AND first_number <= last_number),
  -- Two annulments never hold overlapping ranges at once (a rejected one frees its ranges).
  ADD CONSTRAINT "annulment_ranges_no_overlap" EXCLUDE USING gist (
    tenant_id WITH =, environment WITH =, prefix WITH =, int8range(first_number, last_number, '[]') WITH &&)
    WHERE (active);

-- The advisory-lock key shared by emission (shared) and annulment reservation (exclusive): one per
-- tenant, environment and eNCF prefix (series letter + type, `E31`).
CREATE FUNCTION encf_lock_key(tenant uuid, env "Environment", prefix text) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT hashtextextended(tenant::text || '/' || env::text || '/' || prefix, 13) $$;

-- The active annulment range containing an eNCF, if any. Called after the shared lock is held: in
-- READ COMMITTED each query of a volatile function takes a fresh snapshot, so it sees every
-- reservation committed before the lock was granted.
CREATE FUNCTION encf_reserving_annulment(tenant uuid, env "Environment", encf text) RETURNS uuid
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  found uuid;
BEGIN
  IF encf !~ '^[A-Z][0-9]{12}$' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(encf_lock_key(tenant, env, substr(encf, 1, 3)));
  SELECT r.annulment_id INTO found FROM annulment_ranges r
   WHERE r.tenant_id = tenant AND r.environment = env AND r.prefix = substr(encf, 1, 3) AND r.active
     AND r.first_number <= substr(encf, 4)::bigint AND r.last_number >= substr(encf, 4)::bigint
   LIMIT 1;
  RETURN found;
END $$;

-- Emission: an eNCF inside a reserved or annulled range is refused (SQLSTATE EC409).
CREATE FUNCTION documents_refuse_reserved_encf() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  annulment uuid := encf_reserving_annulment(NEW.tenant_id, NEW.environment, NEW.encf);
BEGIN
  IF annulment IS NOT NULL THEN
    RAISE EXCEPTION 'eNCF % is in a range reserved or annulled by annulment %', NEW.encf, annulment
      USING ERRCODE = 'EC409', DETAIL = annulment::text;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER documents_refuse_reserved_encf BEFORE INSERT ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_refuse_reserved_encf();

-- Transmission: the claim of a send (attempts + 1, committed before the request leaves) of an
-- eNCF inside a reserved or annulled range is refused (SQLSTATE EC410): once an annulment holds the
-- range, none of its documents leaves toward the tax authority.
CREATE FUNCTION documents_refuse_reserved_send() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  annulment uuid := encf_reserving_annulment(NEW.tenant_id, NEW.environment, NEW.encf);
BEGIN
  IF annulment IS NOT NULL THEN
    RAISE EXCEPTION 'eNCF % is in a range reserved or annulled by annulment %: not sent', NEW.encf, annulment
      USING ERRCODE = 'EC410', DETAIL = annulment::text;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER documents_refuse_reserved_send BEFORE UPDATE OF attempts ON documents
  FOR EACH ROW WHEN (NEW.attempts > OLD.attempts)
  EXECUTE FUNCTION documents_refuse_reserved_send();
