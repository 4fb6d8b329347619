-- CreateEnum
CREATE TYPE "CertificationStep" AS ENUM ('registered', 'data_tests_ecf', 'data_tests_commercial_approval', 'simulation_ecf', 'simulation_printed_representation', 'printed_representation_validation', 'test_service_urls', 'reception_test_ecf', 'reception_ecf', 'reception_test_commercial_approval', 'reception_commercial_approval', 'production_service_urls', 'sworn_declaration', 'status_verification', 'finished');

-- CreateEnum
CREATE TYPE "CertificationCaseState" AS ENUM ('in_progress', 'failed', 'approved', 'closed');

-- CreateEnum
CREATE TYPE "CertificationSetKind" AS ENUM ('ecf', 'approvals');

-- CreateEnum
CREATE TYPE "CertificationSetSource" AS ENUM ('workbook', 'json', 'taxauth_model');

-- CreateEnum
CREATE TYPE "CertificationPart" AS ENUM ('data', 'simulation');

-- CreateEnum
CREATE TYPE "CertificationRunState" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'stopped');

-- CreateEnum
CREATE TYPE "CertificationItemState" AS ENUM ('pending', 'issued', 'accepted', 'rejected', 'failed', 'stopped');

-- CreateEnum
CREATE TYPE "CertificationApprovalItemState" AS ENUM ('pending', 'signed', 'accepted', 'rejected', 'stopped');

-- AlterTable
ALTER TABLE "documents" ADD COLUMN     "replaced_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "certification_cases" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "state" "CertificationCaseState" NOT NULL DEFAULT 'in_progress',
    "step" "CertificationStep" NOT NULL DEFAULT 'registered',
    "test_set_id" UUID,
    "official_set_ref" VARCHAR(200),
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "approved_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "certification_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_step_completions" (
    "id" BIGSERIAL NOT NULL,
    "case_id" UUID NOT NULL,
    "step" "CertificationStep" NOT NULL,
    "source" VARCHAR(20) NOT NULL,
    "reference" VARCHAR(64),
    "completed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "certification_step_completions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_attestations" (
    "id" UUID NOT NULL,
    "case_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "step" "CertificationStep" NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "actor_ref" VARCHAR(200),
    "notes" VARCHAR(4000),
    "evidence_refs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "recorded_by" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_attestations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_sets" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" "CertificationSetKind" NOT NULL,
    "source" "CertificationSetSource" NOT NULL,
    "rnc" VARCHAR(11) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "content" BYTEA NOT NULL,
    "rows" JSONB NOT NULL,
    "row_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_runs" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "case_id" UUID NOT NULL,
    "set_id" UUID,
    "part" "CertificationPart" NOT NULL,
    "source" "CertificationSetSource" NOT NULL,
    "state" "CertificationRunState" NOT NULL DEFAULT 'queued',
    "idempotency_key" VARCHAR(200),
    "request_fingerprint" CHAR(64),
    "failure" JSONB,
    "correlation_id" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "replaced_at" TIMESTAMPTZ(3),
    "evidence_artifact_id" UUID,
    "advance_generation" INTEGER NOT NULL DEFAULT 0,
    "progressed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_run_items" (
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "sheet_row" INTEGER,
    "case_ref" VARCHAR(40),
    "type" SMALLINT NOT NULL,
    "encf" VARCHAR(13) NOT NULL,
    "depends_on" VARCHAR(13),
    "document" JSONB NOT NULL,
    "rfce" JSONB,
    "document_id" UUID,
    "state" "CertificationItemState" NOT NULL DEFAULT 'pending',
    "detail" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_run_items_pkey" PRIMARY KEY ("run_id","position")
);

-- CreateTable
CREATE TABLE "certification_approval_sends" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "case_id" UUID NOT NULL,
    "set_id" UUID NOT NULL,
    "state" "CertificationRunState" NOT NULL DEFAULT 'queued',
    "idempotency_key" VARCHAR(200),
    "request_fingerprint" CHAR(64),
    "failure" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "replaced_at" TIMESTAMPTZ(3),
    "advance_generation" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "certification_approval_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certification_approval_items" (
    "send_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "sheet_row" INTEGER NOT NULL,
    "encf" VARCHAR(13) NOT NULL,
    "issuer_rnc" VARCHAR(11) NOT NULL,
    "values" JSONB NOT NULL,
    "signed_xml" TEXT,
    "answer" JSONB,
    "state" "CertificationApprovalItemState" NOT NULL DEFAULT 'pending',
    "sent_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_approval_items_pkey" PRIMARY KEY ("send_id","position")
);

-- CreateIndex
CREATE INDEX "certification_cases_tenant_id_created_at_idx" ON "certification_cases"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "certification_step_completions_case_id_idx" ON "certification_step_completions"("case_id");

-- CreateIndex
CREATE INDEX "certification_attestations_case_id_created_at_idx" ON "certification_attestations"("case_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "certification_sets_tenant_id_kind_sha256_key" ON "certification_sets"("tenant_id", "kind", "sha256");

-- CreateIndex
CREATE INDEX "certification_runs_case_id_created_at_idx" ON "certification_runs"("case_id", "created_at");

-- CreateIndex
CREATE INDEX "certification_runs_state_updated_at_idx" ON "certification_runs"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "certification_runs_tenant_id_idempotency_key_key" ON "certification_runs"("tenant_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "certification_run_items_document_id_idx" ON "certification_run_items"("document_id");

-- CreateIndex
CREATE INDEX "certification_approval_sends_case_id_created_at_idx" ON "certification_approval_sends"("case_id", "created_at");

-- CreateIndex
CREATE INDEX "certification_approval_sends_state_updated_at_idx" ON "certification_approval_sends"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "certification_approval_sends_tenant_id_idempotency_key_key" ON "certification_approval_sends"("tenant_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "certification_cases" ADD CONSTRAINT "certification_cases_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_step_completions" ADD CONSTRAINT "certification_step_completions_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "certification_cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_attestations" ADD CONSTRAINT "certification_attestations_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "certification_cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_sets" ADD CONSTRAINT "certification_sets_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_runs" ADD CONSTRAINT "certification_runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_runs" ADD CONSTRAINT "certification_runs_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "certification_cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_runs" ADD CONSTRAINT "certification_runs_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "certification_sets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_run_items" ADD CONSTRAINT "certification_run_items_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "certification_runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_approval_sends" ADD CONSTRAINT "certification_approval_sends_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_approval_sends" ADD CONSTRAINT "certification_approval_sends_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "certification_cases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_approval_sends" ADD CONSTRAINT "certification_approval_sends_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "certification_sets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification_approval_items" ADD CONSTRAINT "certification_approval_items_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "certification_approval_sends"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: one open case per account (a closed one makes room for the next), and one live
-- completion per step of a case (a restart revokes completions instead of deleting them).
CREATE UNIQUE INDEX "certification_cases_one_open" ON "certification_cases" ("tenant_id")
  WHERE "state" <> 'closed';
CREATE UNIQUE INDEX "certification_step_completions_one_live" ON "certification_step_completions" ("case_id", "step")
  WHERE "revoked_at" IS NULL;

-- Hand-written: attestations are what a person declared; nothing rewrites them (as the audit log, 0009).
CREATE TRIGGER "certification_attestations_append_only" BEFORE UPDATE OR DELETE ON "certification_attestations"
  FOR EACH ROW EXECUTE FUNCTION "reject_mutation"();
CREATE TRIGGER "certification_attestations_no_truncate" BEFORE TRUNCATE ON "certification_attestations"
  FOR EACH STATEMENT EXECUTE FUNCTION "reject_mutation"();

-- Hand-written: the outbox rows of the certification events (issue 19), written in the statement of
-- each change like the other events (0012, 0014, 0015): no change without its event, no event
-- without its change, whoever writes it (API, worker, portal). Environment: CerteCF, where the
-- certification happens. `certification.state_changed` on a case's insert and on every change of
-- its state or step; `certification.run_completed` when a run becomes `succeeded` (a failed run
-- announces itself through its case's `failed` state, as the interface spec says).
CREATE FUNCTION "webhook_events_certification_case"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."state" IS NOT DISTINCT FROM OLD."state" AND NEW."step" IS NOT DISTINCT FROM OLD."step" THEN
    RETURN NULL;
  END IF;
  IF NOT "webhook_listeners_exist"(NEW."tenant_id", 'CerteCF') THEN
    RETURN NULL;
  END IF;
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
  VALUES (gen_random_uuid(), 'certification.state_changed', NEW."tenant_id", 'CerteCF',
    jsonb_build_object(
      'case', jsonb_build_object(
        'id', NEW."id",
        'state', NEW."state",
        'step', NEW."step",
        'fromState', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD."state"::text END,
        'fromStep', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD."step"::text END,
        'version', NEW."version",
        'testSetId', NEW."test_set_id",
        'approvedAt', NEW."approved_at")),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "certification_cases_webhook_events" AFTER INSERT OR UPDATE OF "state", "step" ON "certification_cases"
  FOR EACH ROW EXECUTE FUNCTION "webhook_events_certification_case"();

CREATE FUNCTION "webhook_events_certification_run"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts JSONB;
BEGIN
  IF NEW."state" <> 'succeeded' OR NEW."state" IS NOT DISTINCT FROM OLD."state" THEN
    RETURN NULL;
  END IF;
  IF NOT "webhook_listeners_exist"(NEW."tenant_id", 'CerteCF') THEN
    RETURN NULL;
  END IF;
  SELECT jsonb_build_object('documents', count(*),
                            'accepted', count(*) FILTER (WHERE i."state" = 'accepted'))
    INTO counts FROM "certification_run_items" i WHERE i."run_id" = NEW."id";
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
  VALUES (gen_random_uuid(), 'certification.run_completed', NEW."tenant_id", 'CerteCF',
    jsonb_build_object(
      'run', jsonb_build_object(
        'id', NEW."id",
        'caseId', NEW."case_id",
        'part', NEW."part",
        'state', NEW."state",
        'source', NEW."source",
        'startedAt', NEW."started_at",
        'finishedAt', NEW."finished_at"),
      'totals', counts),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "certification_runs_webhook_events" AFTER UPDATE OF "state" ON "certification_runs"
  FOR EACH ROW EXECUTE FUNCTION "webhook_events_certification_run"();
