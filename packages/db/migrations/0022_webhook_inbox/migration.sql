-- CreateTable
CREATE TABLE "webhook_inboxes" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "token_sha256" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_inboxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_inbox_requests" (
    "id" BIGSERIAL NOT NULL,
    "inbox_id" UUID NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "headers" JSONB NOT NULL,
    "body" BYTEA NOT NULL,
    "body_bytes" INTEGER NOT NULL,

    CONSTRAINT "webhook_inbox_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_inboxes_endpoint_id_key" ON "webhook_inboxes"("endpoint_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_inboxes_token_sha256_key" ON "webhook_inboxes"("token_sha256");

-- CreateIndex
CREATE INDEX "webhook_inboxes_tenant_id_idx" ON "webhook_inboxes"("tenant_id");

-- CreateIndex
CREATE INDEX "webhook_inbox_requests_inbox_id_received_at_id_idx" ON "webhook_inbox_requests"("inbox_id", "received_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "webhook_inboxes" ADD CONSTRAINT "webhook_inboxes_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_inbox_requests" ADD CONSTRAINT "webhook_inbox_requests_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "webhook_inboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

