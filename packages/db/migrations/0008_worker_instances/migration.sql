-- CreateTable
CREATE TABLE "worker_instances" (
    "id" UUID NOT NULL,
    "host" VARCHAR(255) NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL,
    "recovered_at" TIMESTAMPTZ(3),

    CONSTRAINT "worker_instances_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "worker_instances_recovered_at_heartbeat_at_idx" ON "worker_instances"("recovered_at", "heartbeat_at");

