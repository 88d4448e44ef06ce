import type pg from 'pg'
import { TeamStoreError } from './connection'

/**
 * The team store's schema, as versioned migrations applied in order (docs/team-store.md). Every
 * table lives in the PostgreSQL schema `virtbench`; `virtbench.schema_version` records each
 * migration applied. VirtBench refuses a store whose schema is newer than the migrations it knows.
 * A migration is never edited once released: a change is a new migration.
 */

export const TEAM_SCHEMA = 'virtbench'

const MIGRATION_1 = `
CREATE SCHEMA IF NOT EXISTS virtbench;
CREATE TABLE virtbench.schema_version (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now(),
  app_version text NOT NULL
);
CREATE TABLE virtbench.runs (
  id text PRIMARY KEY,
  name text NOT NULL,
  preset text NOT NULL,
  release text NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  ended_at timestamptz,
  app_version text NOT NULL,
  author text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  baseline text NOT NULL,
  variants text[] NOT NULL,
  raw_mode text NOT NULL CHECK (raw_mode IN ('pointer', 'copy')),
  raw_location text NOT NULL,
  summary jsonb NOT NULL,
  document jsonb NOT NULL
);
CREATE INDEX runs_preset_created ON virtbench.runs (preset, created_at DESC);
CREATE INDEX runs_author ON virtbench.runs (author);
CREATE TABLE virtbench.targets (
  run_id text NOT NULL REFERENCES virtbench.runs (id) ON DELETE CASCADE,
  name text NOT NULL,
  role text NOT NULL,
  label text NOT NULL,
  kind text NOT NULL,
  address text,
  scenario jsonb,
  environment jsonb,
  PRIMARY KEY (run_id, name)
);
CREATE INDEX targets_label ON virtbench.targets (label);
CREATE TABLE virtbench.tests (
  run_id text NOT NULL REFERENCES virtbench.runs (id) ON DELETE CASCADE,
  test_id text NOT NULL,
  title text NOT NULL,
  tool text NOT NULL,
  params jsonb NOT NULL,
  repetitions integer NOT NULL,
  aggregate text NOT NULL,
  primary_metrics text[],
  PRIMARY KEY (run_id, test_id)
);
CREATE TABLE virtbench.jobs (
  run_id text NOT NULL REFERENCES virtbench.runs (id) ON DELETE CASCADE,
  job_id text NOT NULL,
  test_id text NOT NULL,
  target text NOT NULL,
  side text NOT NULL,
  kind text NOT NULL,
  repetition integer NOT NULL,
  status text NOT NULL,
  started_at timestamptz,
  ended_at timestamptz,
  error text,
  PRIMARY KEY (run_id, job_id)
);
CREATE TABLE virtbench.samples (
  run_id text NOT NULL,
  job_id text NOT NULL,
  ordinal integer NOT NULL,
  metric text NOT NULL,
  value double precision NOT NULL,
  unit text NOT NULL,
  better text NOT NULL,
  labels jsonb NOT NULL,
  PRIMARY KEY (run_id, job_id, ordinal),
  FOREIGN KEY (run_id, job_id) REFERENCES virtbench.jobs (run_id, job_id) ON DELETE CASCADE
);
CREATE TABLE virtbench.comparison_rows (
  run_id text NOT NULL REFERENCES virtbench.runs (id) ON DELETE CASCADE,
  row_no integer NOT NULL,
  variant text NOT NULL,
  test_id text NOT NULL,
  test_title text NOT NULL,
  metric text NOT NULL,
  labels jsonb NOT NULL,
  unit text NOT NULL,
  better text NOT NULL,
  category text,
  is_primary boolean NOT NULL,
  comparison text NOT NULL,
  baseline_value double precision,
  variant_value double precision,
  relative_pct double precision,
  overhead_pct double precision,
  difference double precision,
  ci_low double precision,
  ci_high double precision,
  n_baseline integer,
  n_variant integer,
  verdict text NOT NULL,
  verdict_reason text NOT NULL,
  flags text[] NOT NULL,
  PRIMARY KEY (run_id, row_no, variant)
);
CREATE TABLE virtbench.raw_outputs (
  run_id text NOT NULL REFERENCES virtbench.runs (id) ON DELETE CASCADE,
  file text NOT NULL,
  bytes bigint NOT NULL,
  content bytea,
  PRIMARY KEY (run_id, file)
);
CREATE VIEW virtbench.primary_relative AS
  SELECT r.preset, r.release, r.id AS run_id, r.name AS run_name, r.created_at, r.author,
         c.variant, c.test_id, c.test_title, c.metric, c.labels, c.unit, c.category,
         c.relative_pct, c.ci_low, c.ci_high, c.verdict
    FROM virtbench.runs r JOIN virtbench.comparison_rows c ON c.run_id = r.id
   WHERE c.is_primary AND c.comparison = 'ratio' AND c.relative_pct IS NOT NULL;
CREATE VIEW virtbench.release_verdicts AS
  SELECT r.preset, r.release, r.id AS run_id, r.created_at, c.variant,
         count(*) FILTER (WHERE c.verdict = 'slower') AS slower,
         count(*) FILTER (WHERE c.verdict = 'same') AS same,
         count(*) FILTER (WHERE c.verdict = 'faster') AS faster,
         count(*) FILTER (WHERE c.verdict = 'inconclusive') AS inconclusive,
         min(c.relative_pct) AS worst_relative_pct
    FROM virtbench.runs r JOIN virtbench.comparison_rows c ON c.run_id = r.id
   WHERE c.is_primary
   GROUP BY r.preset, r.release, r.id, r.created_at, c.variant;
`

/** Migration n is MIGRATIONS[n - 1]. */
export const MIGRATIONS: readonly string[] = [MIGRATION_1]
export const SCHEMA_VERSION = MIGRATIONS.length

/** Serializes migrations of several publishers at once (a fixed key of pg_advisory_xact_lock). */
const MIGRATION_LOCK = 0x76627363

/** The schema version of the store: 0 when VirtBench's tables are not there yet. */
export async function schemaVersionOf(client: pg.Client): Promise<number> {
  // a scan of pg_tables sees what another session committed a moment ago; to_regclass reads the
  // backend's catalog caches, which can still miss a table created while we waited for the lock
  const found = await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename = $2) AS found', [TEAM_SCHEMA, 'schema_version'])
  if (!found.rows[0]?.found) return 0
  const result = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM virtbench.schema_version')
  return result.rows[0]?.version ?? 0
}

export function newerSchemaError(found: number, where: string): TeamStoreError {
  return new TeamStoreError(
    `the team store at ${where} has schema version ${found}, newer than this VirtBench knows (${SCHEMA_VERSION}): it was set up by a newer VirtBench; upgrade VirtBench to publish there or read from it`
  )
}

/**
 * Brings the store's schema to SCHEMA_VERSION (each missing migration in one transaction) and
 * returns the version found before. A store at the current version costs one query and needs no
 * right to create tables; a newer one is refused.
 */
export async function migrate(client: pg.Client, where: string, appVersion: string): Promise<number> {
  const before = await schemaVersionOf(client)
  if (before > SCHEMA_VERSION) throw newerSchemaError(before, where)
  if (before === SCHEMA_VERSION) return before
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    // another publisher may have migrated while we waited for the lock
    const current = await schemaVersionOf(client)
    if (current > SCHEMA_VERSION) throw newerSchemaError(current, where)
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      await client.query(MIGRATIONS[version - 1]!)
      await client.query('INSERT INTO virtbench.schema_version (version, app_version) VALUES ($1, $2)', [version, appVersion])
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
  return before
}

/** For reading: the schema must be there and not newer than known. */
export async function checkReadable(client: pg.Client, where: string): Promise<void> {
  const version = await schemaVersionOf(client)
  if (version > SCHEMA_VERSION) throw newerSchemaError(version, where)
  if (version === 0) throw new TeamStoreError(`the team store at ${where} has no VirtBench tables yet: publish a run to it first`)
}
