-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "correlation_id" VARCHAR(200) DEFAULT NULLIF(current_setting('ecf.correlation_id'::text, true), ''::text);

-- Hand-written (issue 26, Partner webhooks).
--
-- `correlation_id`: every outbox row carries the correlation id of the request whose change wrote
-- it. The API runs each request's work with its id (`runWithCorrelationId`, @ecf/db correlation.ts)
-- and the database client gives every connection it hands out the session setting
-- `ecf.correlation_id` of the caller's request ('' outside any request: a job, a sweep), so the
-- column's default fills it in whichever trigger writes the row; the payloads' `correlationId` is
-- this column. Outage events below set it to NULL explicitly: an outage is no request's doing even
-- when a send made inside a request is the one that noticed it.
--
-- Outage episodes for Partners (`taxauth.service_degraded` / `taxauth.service_restored`): a Partner
-- payload names one fiscal account, so besides the environment-wide row the direct endpoints get
-- (tenant_id null, as in 0012), an episode writes one row per affected account of a Partner that has
-- a non-retired endpoint: once per episode in each customer's environment, each with its own id
-- (`Svc-Event-Id`) and sequence (`stateVersion`). Affected: the account can send in the
-- environment, i.e. it has an active certificate and, in eCF, its production is active. The
-- restore goes to exactly the accounts the degradation went to (so every `degraded` has its
-- `restored`, and none comes without one). These rows are for Partner endpoints only (the fan-out
-- sends a direct endpoint the environment-wide row alone).
CREATE OR REPLACE FUNCTION "webhook_events_episode"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type TEXT;
  episode_data JSONB;
  written INTEGER := 0;
  accounts INTEGER;
BEGIN
  IF TG_OP = 'INSERT' THEN
    event_type := 'taxauth.service_degraded';
  ELSIF OLD."restored_at" IS NULL AND NEW."restored_at" IS NOT NULL THEN
    event_type := 'taxauth.service_restored';
  ELSE
    RETURN NULL;
  END IF;
  episode_data := jsonb_build_object('episodeId', NEW."id", 'code', NEW."code", 'service', NEW."service",
                                     'degradedSince', NEW."degraded_since", 'restoredAt', NEW."restored_at");
  IF EXISTS (SELECT 1 FROM "webhook_endpoints" e
             WHERE e."system" = 'direct' AND e."environment" = NEW."environment" AND e."status" <> 'retired') THEN
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "episode_id", "data", "created_at", "correlation_id")
    VALUES (gen_random_uuid(), event_type, NULL, NEW."environment", NEW."id", episode_data, clock_timestamp(), NULL);
    written := 1;
  END IF;
  IF event_type = 'taxauth.service_degraded' THEN
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "episode_id", "data", "created_at", "correlation_id")
    SELECT gen_random_uuid(), event_type, t."id", NEW."environment", NEW."id", episode_data, clock_timestamp(), NULL
      FROM "tenants" t
     WHERE t."partner_id" IS NOT NULL
       AND (NEW."environment" <> 'eCF' OR t."production_state" = 'active')
       AND EXISTS (SELECT 1 FROM "webhook_endpoints" e
                   WHERE e."system" = 'partner' AND e."partner_id" = t."partner_id" AND e."status" <> 'retired')
       AND EXISTS (SELECT 1 FROM "tenant_certificates" c
                   WHERE c."tenant_id" = t."id" AND c."active" AND c."revoked_at" IS NULL)
     ORDER BY t."id";
  ELSE
    INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "episode_id", "data", "created_at", "correlation_id")
    SELECT gen_random_uuid(), event_type, d."tenant_id", NEW."environment", NEW."id", episode_data, clock_timestamp(), NULL
      FROM "webhook_events" d
     WHERE d."episode_id" = NEW."id" AND d."type" = 'taxauth.service_degraded' AND d."tenant_id" IS NOT NULL
     ORDER BY d."sequence";
  END IF;
  GET DIAGNOSTICS accounts = ROW_COUNT;
  IF written + accounts > 0 THEN
    PERFORM pg_notify('ecf_webhook_event', '');
  END IF;
  RETURN NULL;
END;
$$;

-- The restore reads the degradation's rows of its episode.
CREATE INDEX "webhook_events_episode_id_idx" ON "webhook_events" ("episode_id") WHERE "episode_id" IS NOT NULL;
