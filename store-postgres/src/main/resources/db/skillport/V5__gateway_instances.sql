-- The gateway registry of instances on many machines: each instance's entry (what the folder
-- registry keeps as instances/ID.json), when it last said it was alive, and the proof that it knew
-- the registration token (an HMAC of its id and URL; null when registered without one). Several
-- gateways behind a load balancer read the same rows.
CREATE TABLE skillport_gateway_instances (
  id text PRIMARY KEY,
  entry jsonb NOT NULL,
  heartbeat timestamptz NOT NULL,
  proof text
);
