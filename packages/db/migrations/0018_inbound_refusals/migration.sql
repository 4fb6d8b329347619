-- CreateTable
CREATE TABLE "inbound_refusals" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" "InboundKind" NOT NULL,
    "not_received_code" SMALLINT,
    "reason" TEXT,
    "issuer_rnc" VARCHAR(11) NOT NULL,
    "encf" VARCHAR(13) NOT NULL,
    "ecf_type" SMALLINT NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "source_address" TEXT,
    "answer" BYTEA,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retain_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inbound_refusals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_refusal_days" (
    "source_address" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "stored" INTEGER NOT NULL DEFAULT 0,
    "dropped" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "inbound_refusal_days_pkey" PRIMARY KEY ("source_address","day")
);

-- CreateIndex
CREATE INDEX "inbound_refusals_tenant_id_environment_received_at_idx" ON "inbound_refusals"("tenant_id", "environment", "received_at");

-- CreateIndex
CREATE INDEX "inbound_refusals_retain_until_idx" ON "inbound_refusals"("retain_until");

-- AddForeignKey
ALTER TABLE "inbound_refusals" ADD CONSTRAINT "inbound_refusals_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

