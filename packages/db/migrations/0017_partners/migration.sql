-- CreateEnum
CREATE TYPE "PartnerStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "PartnerKeyProfile" AS ENUM ('full', 'onboarding', 'runtime', 'webhooks');

-- CreateEnum
CREATE TYPE "PartnerPaidStatus" AS ENUM ('paid', 'overdue', 'unpaid');

-- CreateEnum
CREATE TYPE "PartnerUserRole" AS ENUM ('partner_admin', 'partner_developer');

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "external_tenant_id" VARCHAR(200),
ADD COLUMN     "municipality_code" VARCHAR(6),
ADD COLUMN     "partner_id" UUID,
ADD COLUMN     "province_code" VARCHAR(6);

-- AlterTable
ALTER TABLE "tenant_certificates" ADD COLUMN     "expired_notified_at" TIMESTAMPTZ(3),
ADD COLUMN     "expiring_notified_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_endpoints" ALTER COLUMN "environment" DROP NOT NULL;

-- CreateTable
CREATE TABLE "partners" (
    "id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "status" "PartnerStatus" NOT NULL DEFAULT 'active',
    "plan" VARCHAR(64) NOT NULL DEFAULT 'starter',
    "paid_status" "PartnerPaidStatus" NOT NULL DEFAULT 'unpaid',
    "overdue_since" TIMESTAMPTZ(3),
    "billing_url" VARCHAR(2048),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "partners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_keys" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "prefix" VARCHAR(32) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "profile" "PartnerKeyProfile" NOT NULL DEFAULT 'full',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "partner_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_browser_origins" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "origin" VARCHAR(255) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_browser_origins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_users" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "role" "PartnerUserRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_usage_counters" (
    "partner_id" UUID NOT NULL,
    "month" CHAR(7) NOT NULL,
    "tenant_id" UUID NOT NULL,
    "accepted" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "partner_usage_counters_pkey" PRIMARY KEY ("partner_id","month","tenant_id")
);

-- CreateTable
CREATE TABLE "certificate_upload_sessions" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "purpose" VARCHAR(16) NOT NULL,
    "browser_origin" VARCHAR(255) NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "attempts_used" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "certificate_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certificate_upload_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "taxpayer_registry_imports" (
    "id" UUID NOT NULL,
    "file_name" VARCHAR(500) NOT NULL,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "taxpayer_registry_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "taxpayer_registry_entries" (
    "import_id" UUID NOT NULL,
    "rnc" VARCHAR(11) NOT NULL,
    "name" TEXT NOT NULL,
    "trade_name" TEXT,
    "activity" TEXT,
    "status" VARCHAR(64) NOT NULL,

    CONSTRAINT "taxpayer_registry_entries_pkey" PRIMARY KEY ("import_id","rnc")
);

-- CreateIndex
CREATE UNIQUE INDEX "partner_keys_prefix_key" ON "partner_keys"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "partner_keys_hash_key" ON "partner_keys"("hash");

-- CreateIndex
CREATE INDEX "partner_keys_partner_id_created_at_idx" ON "partner_keys"("partner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "partner_browser_origins_partner_id_origin_key" ON "partner_browser_origins"("partner_id", "origin");

-- CreateIndex
CREATE UNIQUE INDEX "partner_users_user_id_key" ON "partner_users"("user_id");

-- CreateIndex
CREATE INDEX "partner_users_partner_id_idx" ON "partner_users"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "certificate_upload_sessions_token_hash_key" ON "certificate_upload_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "certificate_upload_sessions_tenant_id_created_at_idx" ON "certificate_upload_sessions"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "taxpayer_registry_imports_completed_at_idx" ON "taxpayer_registry_imports"("completed_at");

-- CreateIndex
CREATE INDEX "tenants_partner_id_created_at_idx" ON "tenants"("partner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "tenants_partner_id_external_tenant_id_key" ON "tenants"("partner_id", "external_tenant_id");

-- CreateIndex
CREATE INDEX "tenant_certificates_active_valid_to_idx" ON "tenant_certificates"("active", "valid_to");

-- AddForeignKey
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_keys" ADD CONSTRAINT "partner_keys_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_browser_origins" ADD CONSTRAINT "partner_browser_origins_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_users" ADD CONSTRAINT "partner_users_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certificate_upload_sessions" ADD CONSTRAINT "certificate_upload_sessions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;




-- ---------------------------------------------------------------------------------------------
-- Hand-written (issue 20, the Partner API; docs/partner-api.md).

-- A direct endpoint belongs to a tenant and one environment; a Partner endpoint to a Partner and
-- every environment (its events say which).
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_owner_check";
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_owner_check" CHECK (
  ("system" = 'direct' AND "tenant_id" IS NOT NULL AND "partner_id" IS NULL AND "environment" IS NOT NULL)
  OR ("system" = 'partner' AND "partner_id" IS NOT NULL AND "tenant_id" IS NULL));
ALTER TABLE "partner_keys" ADD CONSTRAINT "partner_keys_hash_check" CHECK ("hash" ~ '^[0-9a-f]{64}$');
ALTER TABLE "certificate_upload_sessions" ADD CONSTRAINT "certificate_upload_sessions_attempts_check" CHECK (
  "attempts_used" >= 0 AND "attempts_used" <= "max_attempts" AND "purpose" IN ('upload', 'rotation'));
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_partner_link_check" CHECK (
  ("partner_id" IS NULL) = ("external_tenant_id" IS NULL));

-- Events are recorded where someone may receive them: a direct endpoint of the tenant and
-- environment, or (now that accounts belong to Partners) a Partner endpoint of the tenant's Partner.
-- 0012 counted any Partner endpoint of the environment, which would have written every tenant's events.
CREATE OR REPLACE FUNCTION "webhook_listeners_exist"(p_tenant UUID, p_environment "Environment") RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "webhook_endpoints" e
                 WHERE e."tenant_id" = p_tenant AND e."environment" = p_environment AND e."status" <> 'retired')
      OR EXISTS (SELECT 1 FROM "webhook_endpoints" e JOIN "tenants" t ON t."partner_id" = e."partner_id"
                 WHERE t."id" = p_tenant AND e."system" = 'partner' AND e."status" <> 'retired')
$$;

-- The plan's usage: an e-CF of a Partner's account accepted in eCF counts once, in the Dominican
-- month of its acceptance, in the statement that accepts it (the quota and GET /billing/usage read
-- these counters, never the documents).
CREATE FUNCTION "partner_usage_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "partner_usage_counters" ("partner_id", "month", "tenant_id", "accepted")
  SELECT t."partner_id", to_char(clock_timestamp() AT TIME ZONE 'America/Santo_Domingo', 'YYYY-MM'), NEW."tenant_id", 1
    FROM "tenants" t WHERE t."id" = NEW."tenant_id" AND t."partner_id" IS NOT NULL
  ON CONFLICT ("partner_id", "month", "tenant_id")
    DO UPDATE SET "accepted" = "partner_usage_counters"."accepted" + 1;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "documents_partner_usage" AFTER UPDATE OF "status" ON "documents" FOR EACH ROW
  WHEN (NEW."environment" = 'eCF' AND NEW."status" IN ('accepted', 'accepted_conditional')
        AND OLD."status" NOT IN ('accepted', 'accepted_conditional'))
  EXECUTE FUNCTION "partner_usage_count"();
CREATE TRIGGER "documents_partner_usage_insert" AFTER INSERT ON "documents" FOR EACH ROW
  WHEN (NEW."environment" = 'eCF' AND NEW."status" IN ('accepted', 'accepted_conditional'))
  EXECUTE FUNCTION "partner_usage_count"();

-- `production.state_changed` (Partner only): the eCF authorization of a Partner's account changed,
-- written in the statement of the change (as 0012 does for documents).
CREATE FUNCTION "webhook_events_production"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT "webhook_listeners_exist"(NEW."id", 'eCF') THEN
    RETURN NULL;
  END IF;
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
  VALUES (gen_random_uuid(), 'production.state_changed', NEW."id", 'eCF',
    jsonb_build_object('production', jsonb_build_object(
      'state', NEW."production_state", 'fromState', OLD."production_state")),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "tenants_webhook_events_production" AFTER UPDATE OF "production_state" ON "tenants" FOR EACH ROW
  WHEN (NEW."partner_id" IS NOT NULL AND NEW."production_state" IS DISTINCT FROM OLD."production_state")
  EXECUTE FUNCTION "webhook_events_production"();

-- `certificate.validated` (an active certificate installed), `certificate.expiring` and
-- `certificate.expired` (the daily scan marks `expiring_notified_at` / `expired_notified_at`, once
-- per certificate): Partner events, one per environment (a certificate signs in all three).
CREATE FUNCTION "webhook_events_certificate"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type TEXT;
  env "Environment";
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT NEW."active" THEN RETURN NULL; END IF;
    event_type := 'certificate.validated';
  ELSIF OLD."expired_notified_at" IS NULL AND NEW."expired_notified_at" IS NOT NULL THEN
    event_type := 'certificate.expired';
  ELSIF OLD."expiring_notified_at" IS NULL AND NEW."expiring_notified_at" IS NOT NULL THEN
    event_type := 'certificate.expiring';
  ELSE
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t."id" = NEW."tenant_id" AND t."partner_id" IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  FOREACH env IN ARRAY ARRAY['TesteCF', 'CerteCF', 'eCF']::"Environment"[] LOOP
    IF "webhook_listeners_exist"(NEW."tenant_id", env) THEN
      INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
      VALUES (gen_random_uuid(), event_type, NEW."tenant_id", env,
        jsonb_build_object('certificate', jsonb_build_object(
          'id', NEW."id", 'holderId', NEW."holder_id", 'subject', NEW."subject",
          'serialNumber', NEW."serial_number", 'validFrom', NEW."valid_from", 'validTo', NEW."valid_to")),
        clock_timestamp());
      PERFORM pg_notify('ecf_webhook_event', '');
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "tenant_certificates_webhook_events" AFTER INSERT OR UPDATE OF "expiring_notified_at", "expired_notified_at"
  ON "tenant_certificates" FOR EACH ROW EXECUTE FUNCTION "webhook_events_certificate"();
