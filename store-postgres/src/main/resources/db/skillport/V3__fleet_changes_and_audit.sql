-- Every change of a job record gets a number from one sequence and wakes the instances listening
-- on 'skillport_job_changes', so the progress and status of a job run on one instance reach the
-- clients and pages of every other within a second. Lease renewals (no change of the record) do
-- not count.
CREATE SEQUENCE skillport_job_changes;
ALTER TABLE skillport_jobs ADD COLUMN change_seq bigint NOT NULL DEFAULT nextval('skillport_job_changes');
CREATE INDEX skillport_jobs_change_seq ON skillport_jobs (change_seq);

CREATE FUNCTION skillport_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.record IS DISTINCT FROM OLD.record THEN
    NEW.change_seq := nextval('skillport_job_changes');
    PERFORM pg_notify('skillport_job_changes', NEW.instance);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER skillport_job_changed BEFORE INSERT OR UPDATE ON skillport_jobs
  FOR EACH ROW EXECUTE FUNCTION skillport_job_changed();

-- The audit trail is read newest first (by the time of the call), by caller for a caller that is
-- not an operator.
CREATE INDEX skillport_audit_at ON skillport_audit (at);
CREATE INDEX skillport_audit_caller ON skillport_audit ((entry ->> 'caller'), at);
