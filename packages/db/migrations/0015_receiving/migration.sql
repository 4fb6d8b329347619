-- CreateEnum
CREATE TYPE "InboundKind" AS ENUM ('ecf', 'commercial_approval');

-- CreateEnum
CREATE TYPE "InboundStatus" AS ENUM ('received', 'not_received', 'rejected', 'duplicate');

-- CreateEnum
CREATE TYPE "CommercialDecision" AS ENUM ('accept', 'reject');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ArtifactKind" ADD VALUE 'received_xml';
ALTER TYPE "ArtifactKind" ADD VALUE 'commercial_approval';

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "reception_authentication" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "artifacts" ADD COLUMN     "retain_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "inbound_documents" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" "InboundKind" NOT NULL,
    "status" "InboundStatus" NOT NULL,
    "not_received_code" SMALLINT,
    "not_received_reason" TEXT,
    "issuer_rnc" VARCHAR(11) NOT NULL,
    "issuer_name" TEXT,
    "buyer_rnc" VARCHAR(11),
    "encf" VARCHAR(13) NOT NULL,
    "ecf_type" SMALLINT NOT NULL,
    "issue_date" DATE,
    "total_amount" DECIMAL(18,2),
    "decision" VARCHAR(16),
    "decision_reason" TEXT,
    "decided_at_text" VARCHAR(19),
    "document_id" UUID,
    "correspondence" JSONB,
    "file_name" TEXT,
    "xml_artifact_id" UUID,
    "acknowledgement_artifact_id" UUID,
    "signer" JSONB,
    "source_address" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "taxauth_validity" JSONB,
    "taxauth_validity_checked_at" TIMESTAMPTZ(3),
    "approval_deadline" DATE,
    "approval_due_notified_at" TIMESTAMPTZ(3),

    CONSTRAINT "inbound_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commercial_approvals" (
    "id" UUID NOT NULL,
    "inbound_document_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "decision" "CommercialDecision" NOT NULL,
    "approval_date" TIMESTAMPTZ(3) NOT NULL,
    "rejection_reason" TEXT,
    "acecf_artifact_id" UUID,
    "taxauth_status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "taxauth_answer" JSONB,
    "target_source" VARCHAR(16) NOT NULL,
    "target_url" TEXT,
    "dispatch_status" "ReceiverDeliveryStatus" NOT NULL DEFAULT 'pending',
    "dispatch_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_response" JSONB,
    "reconciliation" JSONB,
    "reconciled_at" TIMESTAMPTZ(3),
    "superseded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "commercial_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reception_seeds" (
    "value" VARCHAR(128) NOT NULL,
    "environment" "Environment" NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "reception_seeds_pkey" PRIMARY KEY ("value")
);

-- CreateTable
CREATE TABLE "reception_tokens" (
    "token_sha256" CHAR(64) NOT NULL,
    "environment" "Environment" NOT NULL,
    "holder_id" VARCHAR(20) NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reception_tokens_pkey" PRIMARY KEY ("token_sha256")
);

-- CreateIndex
CREATE UNIQUE INDEX "inbound_documents_xml_artifact_id_key" ON "inbound_documents"("xml_artifact_id");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_documents_acknowledgement_artifact_id_key" ON "inbound_documents"("acknowledgement_artifact_id");

-- CreateIndex
CREATE INDEX "inbound_documents_tenant_id_environment_kind_received_at_idx" ON "inbound_documents"("tenant_id", "environment", "kind", "received_at");

-- CreateIndex
CREATE INDEX "inbound_documents_tenant_id_environment_kind_encf_idx" ON "inbound_documents"("tenant_id", "environment", "kind", "encf");

-- CreateIndex
CREATE INDEX "inbound_documents_approval_deadline_idx" ON "inbound_documents"("approval_deadline");

-- CreateIndex
CREATE UNIQUE INDEX "commercial_approvals_acecf_artifact_id_key" ON "commercial_approvals"("acecf_artifact_id");

-- CreateIndex
CREATE INDEX "commercial_approvals_inbound_document_id_idx" ON "commercial_approvals"("inbound_document_id");

-- CreateIndex
CREATE INDEX "commercial_approvals_dispatch_status_next_attempt_at_idx" ON "commercial_approvals"("dispatch_status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "reception_seeds_expires_at_idx" ON "reception_seeds"("expires_at");

-- CreateIndex
CREATE INDEX "reception_tokens_expires_at_idx" ON "reception_tokens"("expires_at");

-- AddForeignKey
ALTER TABLE "inbound_documents" ADD CONSTRAINT "inbound_documents_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commercial_approvals" ADD CONSTRAINT "commercial_approvals_inbound_document_id_fkey" FOREIGN KEY ("inbound_document_id") REFERENCES "inbound_documents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commercial_approvals" ADD CONSTRAINT "commercial_approvals_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;



-- ---------------------------------------------------------------------------------------------
-- Hand-written: what reception guarantees in the database (docs/receiving.md).

-- One received copy per (tenant, environment, kind, issuer, eNCF): a second one is a duplicate
-- (e-CF: ARECF Estado 1 with CodigoMotivoNoRecibido 3; ACECF: `duplicate`), decided by this index
-- even when two deliveries of the same document race.
CREATE UNIQUE INDEX "inbound_documents_one_received" ON "inbound_documents"
  ("tenant_id", "environment", "kind", "issuer_rnc", "encf") WHERE "status" = 'received';

ALTER TABLE "inbound_documents"
  ADD CONSTRAINT "inbound_documents_status_of_kind" CHECK (
    ("kind" = 'ecf' AND "status" IN ('received', 'not_received'))
    OR ("kind" = 'commercial_approval' AND "status" IN ('received', 'rejected', 'duplicate'))),
  ADD CONSTRAINT "inbound_documents_not_received_code" CHECK (
    ("status" = 'not_received') = ("not_received_code" IS NOT NULL)
    AND ("not_received_code" IS NULL OR "not_received_code" BETWEEN 1 AND 4)),
  ADD CONSTRAINT "inbound_documents_decision" CHECK ("decision" IS NULL OR "decision" IN ('accepted', 'rejected'));

-- One active commercial approval per received e-CF (a superseded one stays as history).
CREATE UNIQUE INDEX "commercial_approvals_one_active" ON "commercial_approvals" ("inbound_document_id")
  WHERE "superseded_at" IS NULL;

ALTER TABLE "commercial_approvals"
  ADD CONSTRAINT "commercial_approvals_taxauth_status" CHECK (
    "taxauth_status" IN ('pending', 'accepted', 'rejected', 'uncertain', 'not_applicable')),
  ADD CONSTRAINT "commercial_approvals_target_source" CHECK (
    "target_source" IN ('directory', 'request', 'not_applicable', 'none'));

-- ---------------------------------------------------------------------------------------------
-- Hand-written, task C (sending a commercial approval, docs/commercial-approvals.md): the issuer's
-- authentication base (`urlOpcional` of its directory entry), kept with the approval so that every
-- dispatch attempt authenticates the same way without asking the directory again.
ALTER TABLE "commercial_approvals" ADD COLUMN "authentication_url" TEXT;

-- ---------------------------------------------------------------------------------------------
-- Hand-written, task L: events (docs/received-documents.md, docs/webhooks/events.md). The outbox
-- rows of receiving, written by a trigger on `inbound_documents` in the statement that inserts or
-- marks the row, hence in its transaction, whoever writes it (as 0012 does for documents). Only
-- where someone may receive them (`webhook_listeners_exist` of 0012).
--   * an e-CF received (status `received`): `taxauth.public.receiver.ecf.received` (the direct
--     name) and `document.received` (the Partner name), each with the same snapshot;
--   * an ACECF received (status `received`; refused ones announce nothing):
--     `document.commercial_approval_received`, carrying `correspondence`; `document_id` is the
--     issued document it answers (null when none: `ecf_not_found`);
--   * `approval_due_notified_at` set (the hourly sweep, once per e-CF): `document.commercial_approval_due`
--     with the deadline and the Dominican days remaining at the mark.
-- The payload builders (`packages/services/src/webhooks/payloads.ts`) read exactly these shapes.
CREATE FUNCTION "webhook_events_inbound_document"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  snapshot JSONB;
  issued JSONB := NULL;
  today DATE;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."status" <> 'received' THEN
      RETURN NULL;
    END IF;
  ELSIF NOT (OLD."approval_due_notified_at" IS NULL AND NEW."approval_due_notified_at" IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  IF NOT "webhook_listeners_exist"(NEW."tenant_id", NEW."environment") THEN
    RETURN NULL;
  END IF;
  snapshot := jsonb_build_object(
    'inbound', jsonb_build_object(
      'id', NEW."id", 'kind', NEW."kind", 'status', NEW."status", 'encf', NEW."encf",
      'ecfType', NEW."ecf_type", 'issuerRnc', NEW."issuer_rnc", 'issuerName', NEW."issuer_name",
      'buyerRnc', NEW."buyer_rnc", 'issueDate', to_char(NEW."issue_date", 'YYYY-MM-DD'),
      'totalAmount', CASE WHEN NEW."total_amount" IS NULL THEN NULL ELSE to_char(NEW."total_amount", 'FM9999999999999990.00') END,
      'receivedAt', NEW."received_at"));
  IF TG_OP = 'UPDATE' THEN
    today := (NEW."approval_due_notified_at" AT TIME ZONE 'America/Santo_Domingo')::date;
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
    VALUES (gen_random_uuid(), 'document.commercial_approval_due', NEW."tenant_id", NEW."environment",
      snapshot || jsonb_build_object(
        'deadline', to_char(NEW."approval_deadline", 'YYYY-MM-DD'),
        'daysRemaining', NEW."approval_deadline" - today),
      clock_timestamp());
  ELSIF NEW."kind" = 'ecf' THEN
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
    VALUES (gen_random_uuid(), 'taxauth.public.receiver.ecf.received', NEW."tenant_id", NEW."environment", snapshot, clock_timestamp()),
           (gen_random_uuid(), 'document.received', NEW."tenant_id", NEW."environment", snapshot, clock_timestamp());
  ELSE
    IF NEW."document_id" IS NOT NULL THEN
      SELECT jsonb_build_object('id', d."id", 'type', d."type", 'encf', d."encf", 'status', d."status",
                                'trackId', d."track_id")
        INTO issued FROM "documents" d WHERE d."id" = NEW."document_id";
    END IF;
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "document_id", "data", "created_at")
    VALUES (gen_random_uuid(), 'document.commercial_approval_received', NEW."tenant_id", NEW."environment",
      NEW."document_id",
      snapshot || jsonb_build_object(
        'approval', jsonb_build_object(
          'decision', NEW."decision", 'reason', NEW."decision_reason", 'approvedAt', NEW."decided_at_text",
          'correspondence', NEW."correspondence"),
        'document', issued),
      clock_timestamp());
  END IF;
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "inbound_documents_webhook_events" AFTER INSERT OR UPDATE OF "approval_due_notified_at"
  ON "inbound_documents" FOR EACH ROW EXECUTE FUNCTION "webhook_events_inbound_document"();
