-- Queued jobs any instance may claim: the stored call (skill, tool, arguments, digest, host...)
-- of a job that waits in the queue, with the columns the claim selects on. A queued job is
-- pending without a lease; a claim leases it to the claiming instance.
ALTER TABLE skillport_jobs ADD COLUMN call jsonb;
ALTER TABLE skillport_jobs ADD COLUMN skill_key text;
ALTER TABLE skillport_jobs ADD COLUMN host text;
-- When the job was (last) queued: the instance that queued it runs it when no instance could
-- claim it for a lease (none serves its skill's digest or has its host).
ALTER TABLE skillport_jobs ADD COLUMN queued_at timestamptz;
CREATE INDEX skillport_jobs_queued ON skillport_jobs (created_at)
  WHERE status = 'pending' AND lease_until IS NULL AND call IS NOT NULL;
CREATE INDEX skillport_jobs_running_owner ON skillport_jobs (owner) WHERE status = 'running';

-- When each caller's last queued job was claimed: callers that run as many jobs take turns.
CREATE TABLE skillport_callers (
  caller    text PRIMARY KEY,
  served_at timestamptz NOT NULL
);
