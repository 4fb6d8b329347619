-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('TesteCF', 'CerteCF', 'eCF');

-- CreateEnum
CREATE TYPE "ProductionState" AS ENUM ('not_requested', 'pending', 'active', 'suspended');

-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('ecf:validate', 'ecf:create', 'ecf:read', 'status:read', 'tenant:admin');

-- CreateEnum
CREATE TYPE "DocumentStatus" AS ENUM ('queued_for_signing', 'signed', 'sent', 'contingency', 'accepted', 'accepted_conditional', 'rejected', 'cancelled', 'transmission_failed');

-- CreateEnum
CREATE TYPE "SubmissionFormat" AS ENUM ('taxauth_json', 'simplified');

-- CreateEnum
CREATE TYPE "ArtifactKind" AS ENUM ('signed_xml', 'taxauth_response', 'receiver_acknowledgement', 'evidence');

-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "rnc" VARCHAR(11) NOT NULL,
    "legal_name" TEXT NOT NULL,
    "trade_name" TEXT,
    "address" TEXT,
    "phones" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "fiscal_email" TEXT,
    "production_state" "ProductionState" NOT NULL DEFAULT 'not_requested',
    "plan" TEXT NOT NULL DEFAULT 'standard',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" VARCHAR(32) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "scopes" "ApiKeyScope"[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" SMALLINT NOT NULL,
    "encf" VARCHAR(13) NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'queued_for_signing',
    "format" "SubmissionFormat" NOT NULL,
    "issue_date" DATE NOT NULL,
    "total_amount" DECIMAL(18,2) NOT NULL,
    "buyer_rnc" VARCHAR(20),
    "submitted_payload" JSONB NOT NULL,
    "track_id" TEXT,
    "security_code" VARCHAR(6),
    "qr_url" TEXT,
    "signature_date" TIMESTAMPTZ(3),
    "last_error" JSONB,
    "taxauth_messages" JSONB,
    "contingency_since" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_deferred_at" TIMESTAMPTZ(3),
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_fingerprints" (
    "document_id" UUID NOT NULL,
    "algorithm" VARCHAR(32) NOT NULL,
    "value" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_fingerprints_pkey" PRIMARY KEY ("document_id","algorithm")
);

-- CreateTable
CREATE TABLE "document_events" (
    "id" BIGSERIAL NOT NULL,
    "document_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "from_status" "DocumentStatus",
    "to_status" "DocumentStatus",
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "artifacts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "document_id" UUID,
    "kind" "ArtifactKind" NOT NULL,
    "content_type" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment",
    "operation" VARCHAR(64) NOT NULL,
    "key" VARCHAR(200) NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "response_status" SMALLINT,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "bucket" VARCHAR(200) NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("bucket","window_start")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_rnc_key" ON "tenants"("rnc");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_environment_idx" ON "api_keys"("tenant_id", "environment");

-- CreateIndex
CREATE INDEX "documents_tenant_id_environment_submitted_at_id_idx" ON "documents"("tenant_id", "environment", "submitted_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "documents_tenant_id_environment_status_idx" ON "documents"("tenant_id", "environment", "status");

-- CreateIndex
CREATE UNIQUE INDEX "documents_tenant_id_environment_encf_key" ON "documents"("tenant_id", "environment", "encf");

-- CreateIndex
CREATE INDEX "document_events_document_id_id_idx" ON "document_events"("document_id", "id");

-- CreateIndex
CREATE INDEX "artifacts_document_id_kind_idx" ON "artifacts"("document_id", "kind");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_tenant_id_operation_key_key" ON "idempotency_records"("tenant_id", "operation", "key");

-- CreateIndex
CREATE INDEX "rate_limit_counters_expires_at_idx" ON "rate_limit_counters"("expires_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_fingerprints" ADD CONSTRAINT "document_fingerprints_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: the audit trail is append-only and evidence is write-once.
-- Enforced in the database so no code path (or operator with psql) can rewrite history by accident.
CREATE FUNCTION "reject_mutation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % rejected', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "document_events_append_only" BEFORE UPDATE OR DELETE ON "document_events"
  FOR EACH ROW EXECUTE FUNCTION "reject_mutation"();
CREATE TRIGGER "document_events_no_truncate" BEFORE TRUNCATE ON "document_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "reject_mutation"();
CREATE TRIGGER "artifacts_write_once" BEFORE UPDATE OR DELETE ON "artifacts"
  FOR EACH ROW EXECUTE FUNCTION "reject_mutation"();
CREATE TRIGGER "artifacts_no_truncate" BEFORE TRUNCATE ON "artifacts"
  FOR EACH STATEMENT EXECUTE FUNCTION "reject_mutation"();

-- An artifact's digest must be the digest of its content.
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_sha256_matches_content"
  CHECK ("sha256" = encode(sha256("content"), 'hex'));
