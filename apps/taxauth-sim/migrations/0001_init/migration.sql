-- The tax authority simulator's tables, in its own schema: the migrator sets search_path to it
-- (SIM_SCHEMA, default taxauth_sim), so no name here carries a schema.
-- meta: the token epoch (a reset invalidates earlier tokens); tracks: every reception with its
-- state; used_encf: e-NCF burned by a reception; annulled_ranges: ANECF ranges; approvals: ACECF;
-- faults: injected failures.
-- IF NOT EXISTS: a schema that earlier versions created at start (before migrations) is adopted as is.
CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO meta (key, value) VALUES ('token_epoch', '0') ON CONFLICT (key) DO NOTHING;
CREATE TABLE IF NOT EXISTS tracks (
  track_id uuid PRIMARY KEY,
  environment text NOT NULL,
  kind text NOT NULL,
  submitter_rnc text,
  rnc_emisor text,
  encf text,
  rnc_comprador text,
  id_extranjero text,
  monto_total text,
  total_itbis text,
  fecha_emision text,
  fecha_firma text,
  codigo_seguridad text,
  codigo integer NOT NULL,
  estado text NOT NULL,
  secuencia_utilizada boolean NOT NULL,
  mensajes jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  final_at timestamptz
);
CREATE INDEX IF NOT EXISTS tracks_by_encf ON tracks (environment, rnc_emisor, encf, received_at);
CREATE TABLE IF NOT EXISTS used_encf (
  environment text NOT NULL,
  rnc_emisor text NOT NULL,
  encf text NOT NULL,
  track_id uuid NOT NULL,
  used_at timestamptz NOT NULL,
  PRIMARY KEY (environment, rnc_emisor, encf)
);
CREATE TABLE IF NOT EXISTS annulled_ranges (
  id bigserial PRIMARY KEY,
  environment text NOT NULL,
  rnc_emisor text NOT NULL,
  encf_from text NOT NULL,
  encf_to text NOT NULL,
  annulled_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS annulled_by_issuer ON annulled_ranges (environment, rnc_emisor);
CREATE TABLE IF NOT EXISTS approvals (
  environment text NOT NULL,
  rnc_emisor text NOT NULL,
  encf text NOT NULL,
  rnc_comprador text NOT NULL,
  estado text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (environment, rnc_emisor, encf)
);
CREATE TABLE IF NOT EXISTS faults (
  id uuid PRIMARY KEY,
  seq bigserial,
  environment text NOT NULL,
  service text NOT NULL,
  fault text NOT NULL,
  delay_ms integer,
  remaining integer,
  created_at timestamptz NOT NULL DEFAULT now()
);

