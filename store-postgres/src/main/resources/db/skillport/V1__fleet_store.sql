-- Jobs and tasks: the record as the job codec writes it, plus the columns queries select on.
CREATE TABLE skillport_jobs (
  id          text PRIMARY KEY,
  owner       text,
  status      text        NOT NULL,
  instance    text        NOT NULL,
  -- Set while the job is unfinished; renewed by the running instance's heartbeat.
  lease_until timestamptz,
  -- Set when another instance marked the job interrupted because its lease expired.
  expired_at  timestamptz,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  record      jsonb       NOT NULL
);
CREATE INDEX skillport_jobs_leased ON skillport_jobs (instance) WHERE lease_until IS NOT NULL;
CREATE INDEX skillport_jobs_lease_until ON skillport_jobs (lease_until) WHERE lease_until IS NOT NULL;
CREATE INDEX skillport_jobs_owner ON skillport_jobs (owner, created_at);

-- Cancellations and answers handed to the instance that runs a job; each taken once.
CREATE TABLE skillport_job_requests (
  seq        bigserial PRIMARY KEY,
  job_id     text        NOT NULL,
  instance   text        NOT NULL,
  kind       text        NOT NULL CHECK (kind IN ('cancel', 'answer')),
  payload    jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX skillport_job_requests_instance ON skillport_job_requests (instance, seq);

-- The instances that use this store, and when each last showed it is alive.
CREATE TABLE skillport_instances (
  id           text PRIMARY KEY,
  started_at   timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL
);

-- What every instance of the fleet must agree on: one row.
CREATE TABLE skillport_fleet (
  one          boolean PRIMARY KEY DEFAULT true CHECK (one),
  state_key_id text        NOT NULL,
  set_by       text        NOT NULL,
  set_at       timestamptz NOT NULL
);

-- Workflow runs and the outputs of finished idempotent steps.
CREATE TABLE skillport_workflow_runs (
  id         text PRIMARY KEY,
  updated_at timestamptz NOT NULL,
  record     jsonb       NOT NULL
);
CREATE TABLE skillport_workflow_steps (
  key         text PRIMARY KEY,
  recorded_at timestamptz NOT NULL,
  output      jsonb       NOT NULL
);

-- The audit trail: rows are added, never changed or removed.
CREATE TABLE skillport_audit (
  seq      bigserial PRIMARY KEY,
  at       timestamptz NOT NULL,
  instance text        NOT NULL,
  entry    jsonb       NOT NULL
);
CREATE FUNCTION skillport_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only';
END;
$$;
CREATE TRIGGER skillport_audit_append_only BEFORE UPDATE OR DELETE ON skillport_audit
  FOR EACH ROW EXECUTE FUNCTION skillport_audit_append_only();
