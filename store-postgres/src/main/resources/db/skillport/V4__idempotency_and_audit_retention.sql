-- Idempotency keys: per caller and key, the job the first call with it created, and the call's
-- fingerprint. The key row and the job row are inserted by one statement, and the primary key
-- lets only one of two instances racing with the same key create its job.
CREATE TABLE skillport_idempotency (
  caller      text        NOT NULL,
  key         text        NOT NULL,
  fingerprint text        NOT NULL,
  job_id      text        NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (caller, key)
);
CREATE INDEX skillport_idempotency_expires ON skillport_idempotency (expires_at);

-- The audit trail stays append-only, except for the retention sweep: rows older than the
-- retention may be deleted by a transaction that says so (SET LOCAL skillport.audit_retention).
CREATE OR REPLACE FUNCTION skillport_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('skillport.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the audit trail is append-only';
END;
$$;
