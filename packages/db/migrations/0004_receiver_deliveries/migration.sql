-- CreateEnum
CREATE TYPE "ReceiverDeliveryStatus" AS ENUM ('pending', 'sending', 'retry_scheduled', 'sent', 'not_received', 'uncertain', 'dispatch_failed', 'not_applicable');

-- CreateTable
CREATE TABLE "receiver_deliveries" (
    "document_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "status" "ReceiverDeliveryStatus" NOT NULL DEFAULT 'pending',
    "target_url" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" JSONB,
    "next_attempt_at" TIMESTAMPTZ(3),
    "arecf_artifact_id" UUID,
    "reconciled_at" TIMESTAMPTZ(3),
    "reconciliation" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "receiver_deliveries_pkey" PRIMARY KEY ("document_id")
);

-- CreateIndex
CREATE INDEX "receiver_deliveries_tenant_id_status_idx" ON "receiver_deliveries"("tenant_id", "status");

-- AddForeignKey
ALTER TABLE "receiver_deliveries" ADD CONSTRAINT "receiver_deliveries_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

