-- CreateEnum
CREATE TYPE "WebhookSystem" AS ENUM ('direct', 'partner');

-- CreateEnum
CREATE TYPE "WebhookEndpointStatus" AS ENUM ('active', 'paused', 'retired');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "WebhookAttemptOutcome" AS ENUM ('succeeded', 'retry', 'failed');

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "system" "WebhookSystem" NOT NULL DEFAULT 'direct',
    "tenant_id" UUID,
    "partner_id" UUID,
    "environment" "Environment" NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "event_types" TEXT[],
    "status" "WebhookEndpointStatus" NOT NULL DEFAULT 'active',
    "secret_key_id" VARCHAR(64) NOT NULL,
    "encrypted_secret" BYTEA NOT NULL,
    "previous_secret_key_id" VARCHAR(64),
    "previous_encrypted_secret" BYTEA,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" UUID NOT NULL,
    "sequence" BIGSERIAL NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "tenant_id" UUID,
    "environment" "Environment" NOT NULL,
    "document_id" UUID,
    "episode_id" UUID,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fanned_out_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "tenant_id" UUID,
    "environment" "Environment" NOT NULL,
    "event_type" VARCHAR(64) NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'queued',
    "body" BYTEA NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 8,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "failure_reason" VARCHAR(64),
    "replay_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "outcome" "WebhookAttemptOutcome" NOT NULL,
    "response_status" SMALLINT,
    "response_excerpt" TEXT,
    "error" VARCHAR(200),

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_tenant_id_environment_status_idx" ON "webhook_endpoints"("tenant_id", "environment", "status");

-- CreateIndex
CREATE INDEX "webhook_endpoints_partner_id_environment_status_idx" ON "webhook_endpoints"("partner_id", "environment", "status");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_events_sequence_key" ON "webhook_events"("sequence");

-- CreateIndex
CREATE INDEX "webhook_events_document_id_sequence_idx" ON "webhook_events"("document_id", "sequence");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_status_next_attempt_at_idx" ON "webhook_deliveries"("endpoint_id", "status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_attempts_delivery_id_attempt_key" ON "webhook_delivery_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;




-- Hand-written: what Prisma cannot express.
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_owner_check" CHECK (
  ("system" = 'direct' AND "tenant_id" IS NOT NULL AND "partner_id" IS NULL)
  OR ("system" = 'partner' AND "partner_id" IS NOT NULL));
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_event_types_check" CHECK ("event_types" IS NOT NULL);
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_previous_secret_check" CHECK (
  ("previous_encrypted_secret" IS NULL) = ("previous_secret_expires_at" IS NULL)
  AND ("previous_encrypted_secret" IS NULL) = ("previous_secret_key_id" IS NULL));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_attempts_check" CHECK (
  "attempts" >= 0 AND "attempts" <= "max_attempts");
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_attempt_check" CHECK ("attempt" >= 1);

-- The fan-out reads the events it has not handled yet, in order.
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" ("sequence") WHERE "fanned_out_at" IS NULL;

-- The outbox. Every change that deserves a webhook event writes its `webhook_events` row in the
-- same statement (hence the same transaction), whoever makes the change: no event without its
-- change, no change without its event. Events are only recorded where someone may receive them:
-- a non-retired endpoint of the tenant in that environment (or any Partner endpoint of the
-- environment); the fan-out (worker) then picks the subscribed endpoints. Each insert NOTIFYs
-- `ecf_webhook_event` (empty payload, so one notification per transaction) to wake the fan-out.
CREATE FUNCTION "webhook_listeners_exist"(p_tenant UUID, p_environment "Environment") RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "webhook_endpoints" e
                 WHERE e."tenant_id" = p_tenant AND e."environment" = p_environment AND e."status" <> 'retired')
      OR EXISTS (SELECT 1 FROM "webhook_endpoints" e
                 WHERE e."system" = 'partner' AND e."environment" = p_environment AND e."status" <> 'retired')
$$;

CREATE FUNCTION "webhook_events_document"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type TEXT;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Emission stores documents queued for signing; a row born in another state (seeds, imports) is a state change.
    event_type := CASE WHEN NEW."status" = 'queued_for_signing' THEN 'ecf.queued' ELSE 'document.state_changed' END;
  ELSIF NEW."status" IS DISTINCT FROM OLD."status"
     OR (NEW."last_error" IS NOT NULL AND (NEW."last_error"->>'code') IS DISTINCT FROM (OLD."last_error"->>'code')) THEN
    -- A new state, or a new reason it does not advance (another lastError code).
    event_type := 'document.state_changed';
  ELSE
    RETURN NULL;
  END IF;
  IF NOT "webhook_listeners_exist"(NEW."tenant_id", NEW."environment") THEN
    RETURN NULL;
  END IF;
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "document_id", "data", "created_at")
  VALUES (gen_random_uuid(), event_type, NEW."tenant_id", NEW."environment", NEW."id",
    jsonb_build_object(
      'document', jsonb_build_object('id', NEW."id", 'type', NEW."type", 'encf', NEW."encf",
                                     'status', NEW."status", 'trackId', NEW."track_id"),
      'fromStatus', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD."status" END,
      'lastError', NEW."last_error",
      'securityCode', NEW."security_code",
      'signatureDate', NEW."signature_date",
      'qrUrl', NEW."qr_url",
      'contingencySince', NEW."contingency_since"),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "documents_webhook_events" AFTER INSERT OR UPDATE OF "status", "last_error" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "webhook_events_document"();

-- Outage episodes: one event when an episode opens, one when it closes (once per episode), for
-- every tenant of the environment (tenant_id null: the fan-out addresses each endpoint).
CREATE FUNCTION "webhook_events_episode"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type TEXT;
BEGIN
  IF TG_OP = 'INSERT' THEN
    event_type := 'taxauth.service_degraded';
  ELSIF OLD."restored_at" IS NULL AND NEW."restored_at" IS NOT NULL THEN
    event_type := 'taxauth.service_restored';
  ELSE
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "webhook_endpoints" e
                 WHERE e."environment" = NEW."environment" AND e."status" <> 'retired') THEN
    RETURN NULL;
  END IF;
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "episode_id", "data", "created_at")
  VALUES (gen_random_uuid(), event_type, NULL, NEW."environment", NEW."id",
    jsonb_build_object('episodeId', NEW."id", 'code', NEW."code", 'service', NEW."service",
                       'degradedSince', NEW."degraded_since", 'restoredAt', NEW."restored_at"),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "taxauth_episodes_webhook_events" AFTER INSERT OR UPDATE OF "restored_at" ON "taxauth_episodes"
  FOR EACH ROW EXECUTE FUNCTION "webhook_events_episode"();

-- The attempt log is append-only.
CREATE FUNCTION "webhook_delivery_attempts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'webhook_delivery_attempts is append-only';
END;
$$;
CREATE TRIGGER "webhook_delivery_attempts_append_only" BEFORE UPDATE OR DELETE ON "webhook_delivery_attempts"
  FOR EACH ROW EXECUTE FUNCTION "webhook_delivery_attempts_append_only"();
