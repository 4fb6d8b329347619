-- CreateIndex
CREATE INDEX "documents_tenant_id_environment_submitted_at_status_idx" ON "documents"("tenant_id", "environment", "submitted_at", "status");

