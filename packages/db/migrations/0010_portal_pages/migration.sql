-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "deferred_send_authorized" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "payment_term_days" SMALLINT;

-- AlterTable
ALTER TABLE "tenant_certificates" ADD COLUMN     "key_usage" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "operator_notifications" ADD COLUMN     "acknowledged_at" TIMESTAMPTZ(3),
ADD COLUMN     "acknowledged_by" UUID;

