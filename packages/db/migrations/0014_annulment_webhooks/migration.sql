-- Hand-written (no schema.prisma change): the outbox row of `annulment.state_changed` (issue 17),
-- written by a trigger on `annulments` (migration 0013) in the statement that changes an
-- annulment's state, hence in its transaction, whoever makes the change (send, recovery,
-- reconciliation): no event without its change, no change without its event (as 0012 does for
-- documents). An event is recorded when the state becomes one the tax authority's answer (or a
-- reconciliation) gives: `accepted`, `rejected`, `uncertain` (and `failed`, should that state ever
-- exist); `built` and `sending` are ours and announce nothing. Only where someone may receive it
-- (`webhook_listeners_exist` of 0012). `data` carries a snapshot: the annulment (id, state, previous
-- state, whether a reconciliation fixed it), the tax authority's answer `{codigo, nombre, mensajes}`
-- (null without one), the covered documents as counts (null until known; the lists can be long and
-- `GET /{environment}/anulaciones-ecf/{annulmentId}` has them), and `answeredAt`. The payload
-- builders (`packages/services/src/webhooks/payloads.ts`) read exactly this shape.
CREATE FUNCTION "webhook_events_annulment"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  answer JSONB := NEW."taxauth_answer";
  covered JSONB := NEW."covered_documents";
BEGIN
  IF NEW."state"::text NOT IN ('accepted', 'rejected', 'uncertain', 'failed') THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."state" IS NOT DISTINCT FROM OLD."state" THEN
    RETURN NULL;
  END IF;
  IF NOT "webhook_listeners_exist"(NEW."tenant_id", NEW."environment") THEN
    RETURN NULL;
  END IF;
  INSERT INTO "webhook_events" ("id", "type", "tenant_id", "environment", "data", "created_at")
  VALUES (gen_random_uuid(), 'annulment.state_changed', NEW."tenant_id", NEW."environment",
    jsonb_build_object(
      'annulment', jsonb_build_object(
        'id', NEW."id",
        'state', NEW."state",
        'fromState', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD."state"::text END,
        'reconciled', NEW."reconciliation" IS NOT NULL),
      'taxauth', CASE WHEN jsonb_typeof(answer) = 'object' AND answer ? 'codigo' THEN
          jsonb_build_object('codigo', answer->'codigo', 'nombre', answer->'nombre',
                             'mensajes', CASE WHEN jsonb_typeof(answer->'mensajes') = 'array'
                                              THEN answer->'mensajes' ELSE '[]'::jsonb END)
        ELSE NULL END,
      'coveredDocuments', CASE WHEN jsonb_typeof(covered) = 'object' THEN
          jsonb_build_object(
            'cancelled', CASE WHEN jsonb_typeof(covered->'cancelled') = 'array'
                              THEN jsonb_array_length(covered->'cancelled') ELSE 0 END,
            'skipped', CASE WHEN jsonb_typeof(covered->'skipped') = 'array'
                            THEN jsonb_array_length(covered->'skipped') ELSE 0 END)
        ELSE NULL END,
      'answeredAt', NEW."answered_at"),
    clock_timestamp());
  PERFORM pg_notify('ecf_webhook_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "annulments_webhook_events" AFTER INSERT OR UPDATE OF "state" ON "annulments"
  FOR EACH ROW EXECUTE FUNCTION "webhook_events_annulment"();
