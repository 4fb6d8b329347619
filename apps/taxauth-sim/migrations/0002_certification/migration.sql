-- The certification portal (README "Certification portal"), in the simulator's schema (the
-- migrator sets search_path to it, so no name here carries a schema).
-- certifications: one row per RNC under certification: its step (the first of the fifteen not
-- completed), when each step was completed, its current sets, the data and approval test epochs
-- (a restart moves the epoch on, so progress of an earlier attempt no longer counts), the last
-- rejections, the registered URLs and where the simulation count starts.
CREATE TABLE certifications (
  rnc text PRIMARY KEY,
  legal_name text,
  step text NOT NULL,
  completed_steps jsonb NOT NULL DEFAULT '{}'::jsonb,
  ecf_set_id bigint,
  approval_set_id bigint,
  data_epoch integer NOT NULL DEFAULT 0,
  data_resets integer NOT NULL DEFAULT 0,
  approval_epoch integer NOT NULL DEFAULT 0,
  last_data_rejection jsonb,
  last_approval_rejection jsonb,
  simulation_from timestamptz,
  test_urls jsonb,
  production_urls jsonb,
  registered_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX certifications_by_step ON certifications (step);
-- certification_sets: every workbook issued to or loaded for an RNC (kept after it is replaced):
-- its rows as read (texts exactly as written), for an issued set the new eNCF of each template
-- eNCF and the legal name written into it, and the xlsx itself (an issued data-test set's file is
-- written on its first download, from the template and that renumbering).
CREATE TABLE certification_sets (
  id bigserial PRIMARY KEY,
  rnc text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('ecf', 'approval')),
  origin text NOT NULL CHECK (origin IN ('issued', 'loaded')),
  workbook jsonb NOT NULL,
  renumbering jsonb,
  issued_legal_name text,
  xlsx bytea,
  file_name text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX certification_sets_by_rnc ON certification_sets (rnc, kind, id);
-- certification_progress: a row of a set received correctly, in the epoch it counts for.
CREATE TABLE certification_progress (
  set_id bigint NOT NULL,
  epoch integer NOT NULL,
  sheet text NOT NULL,
  encf text NOT NULL,
  track_id uuid,
  accepted_at timestamptz NOT NULL,
  PRIMARY KEY (set_id, epoch, sheet, encf)
);
-- certification_attestations: what a person at the tax authority recorded; append-only.
CREATE TABLE certification_attestations (
  id bigserial PRIMARY KEY,
  rnc text NOT NULL,
  step text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('approved', 'rejected')),
  notes text,
  recorded_at timestamptz NOT NULL
);
CREATE INDEX certification_attestations_by_rnc ON certification_attestations (rnc, id);
CREATE FUNCTION certification_attestations_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'certification attestations are append-only';
END;
$$;
CREATE TRIGGER certification_attestations_append_only BEFORE UPDATE OR DELETE ON certification_attestations
  FOR EACH ROW EXECUTE FUNCTION certification_attestations_append_only();
-- certification_reception_tests: each run of the tax authority's calls to the taxpayer's test URLs.
CREATE TABLE certification_reception_tests (
  id bigserial PRIMARY KEY,
  rnc text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('ecf', 'commercial_approval')),
  ok boolean NOT NULL,
  calls jsonb NOT NULL,
  ran_at timestamptz NOT NULL
);
CREATE INDEX certification_reception_tests_by_rnc ON certification_reception_tests (rnc, id);
-- encf_counters: the last sequence handed out per issuer and type for the documents the portal
-- writes (issued sets, the test issuer's e-CF), so no two issues ever share an eNCF.
CREATE TABLE encf_counters (
  environment text NOT NULL,
  rnc text NOT NULL,
  type text NOT NULL,
  last_sequence bigint NOT NULL,
  PRIMARY KEY (environment, rnc, type)
);
