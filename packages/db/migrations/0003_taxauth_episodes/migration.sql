-- CreateTable
CREATE TABLE "taxauth_episodes" (
    "id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "code" VARCHAR(64) NOT NULL,
    "degraded_since" TIMESTAMPTZ(3) NOT NULL,
    "restored_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "taxauth_episodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_notifications" (
    "id" UUID NOT NULL,
    "kind" VARCHAR(64) NOT NULL,
    "tenant_id" UUID,
    "document_id" UUID,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "operator_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "taxauth_episodes_environment_degraded_since_idx" ON "taxauth_episodes"("environment", "degraded_since");

-- CreateIndex
CREATE INDEX "operator_notifications_created_at_idx" ON "operator_notifications"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "operator_notifications_kind_document_id_key" ON "operator_notifications"("kind", "document_id");



-- Hand-written: at most one open episode per environment, so concurrent workers that see the
-- same outage open it once (INSERT ... ON CONFLICT DO NOTHING).
CREATE UNIQUE INDEX "taxauth_episodes_one_open_per_environment" ON "taxauth_episodes"("environment") WHERE "restored_at" IS NULL;
