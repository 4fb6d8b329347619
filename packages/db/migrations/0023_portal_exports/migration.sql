-- Portal exports (issue 27): the finished CSV/xlsx kept in the database (bytea with its SHA-256)
-- for 7 days, owned by a tenant and the user who asked; production would keep only the object
-- storage key here (ARCHITECTURE.md "Exports").
-- CreateTable
CREATE TABLE "portal_exports" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "format" VARCHAR(8) NOT NULL,
    "environment" "Environment",
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "status" VARCHAR(16) NOT NULL,
    "rows_total" INTEGER,
    "rows_done" INTEGER NOT NULL DEFAULT 0,
    "file_name" VARCHAR(200),
    "content" BYTEA,
    "sha256" CHAR(64),
    "size_bytes" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portal_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "portal_exports_tenant_id_user_id_created_at_idx" ON "portal_exports"("tenant_id", "user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "portal_exports_expires_at_idx" ON "portal_exports"("expires_at");

-- AddForeignKey
ALTER TABLE "portal_exports" ADD CONSTRAINT "portal_exports_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_exports" ADD CONSTRAINT "portal_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

