-- CreateTable
CREATE TABLE "tenant_certificates" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "holder_id" VARCHAR(20),
    "subject" TEXT NOT NULL,
    "serial_number" TEXT NOT NULL,
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_to" TIMESTAMPTZ(3) NOT NULL,
    "key_id" VARCHAR(64) NOT NULL,
    "encrypted_p12" BYTEA NOT NULL,
    "encrypted_password" BYTEA NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenant_certificates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tenant_certificates_tenant_id_active_idx" ON "tenant_certificates"("tenant_id", "active");

-- AddForeignKey
ALTER TABLE "tenant_certificates" ADD CONSTRAINT "tenant_certificates_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;



-- Hand-written: every change of a document's status is announced on the channel
-- `ecf_document_status` (payload: {"documentId","tenantId","environment","status"}), whoever writes
-- it (API, worker, operator). Waiters (`Prefer: wait`) LISTEN instead of polling; NOTIFY is
-- transactional, so the announcement is sent only if the change commits.
CREATE FUNCTION "notify_document_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW."status" IS DISTINCT FROM OLD."status" THEN
    PERFORM pg_notify('ecf_document_status', json_build_object(
      'documentId', NEW."id", 'tenantId', NEW."tenant_id", 'environment', NEW."environment", 'status', NEW."status")::text);
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "documents_status_notify" AFTER INSERT OR UPDATE OF "status" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "notify_document_status"();
