// Schema version 5: a journal commit may set the expiry of other records that end with the run (its
// plan) in the same transaction (decision 2805); and write_outbox writes entry by entry (an indexed
// statement each, instead of a join planned for 100 rows); and admission counts live records through
// an index on (collection, owner_id, state). apply_change gains an overload with one more
// parameter (a json object `{ at, keys: [{ collection, owner_id, id }] }`) that calls version 2's and
// then, only when that wrote something, updates those records. Versions 1–4 stay as they were, so an
// instance of the previous build keeps working against this schema during a rolling deploy.
import type { Migration } from './migration.js';

export const expireWithCommitSchema: Migration = {
  version: 5,
  name: 'journal commits: records that expire with the commit',
  sql: ({ id: s }) => `
CREATE FUNCTION ${s}.apply_change(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_patch boolean,
  p_set_state boolean, p_state text,
  p_set_scope boolean, p_scope text,
  p_set_expires boolean, p_expires bigint,
  p_set_data boolean, p_data json,
  p_set_lease boolean, p_lease_holder text, p_lease_expires bigint,
  p_guard_version integer, p_guard_states text[], p_guard_holder text,
  p_item_keys text[], p_item_data json, p_events json, p_notify text,
  p_outbox json, p_expire json
) RETURNS SETOF ${s}.records LANGUAGE plpgsql AS $fn$
DECLARE
  r ${s}.records;
  k record;
BEGIN
  SELECT * INTO r FROM ${s}.apply_change(p_collection, p_owner, p_id, p_now, p_patch, p_set_state, p_state, p_set_scope, p_scope,
    p_set_expires, p_expires, p_set_data, p_data, p_set_lease, p_lease_holder, p_lease_expires,
    p_guard_version, p_guard_states, p_guard_holder, p_item_keys, p_item_data, p_events, p_notify, p_outbox);
  IF NOT FOUND THEN RETURN; END IF;
  IF p_expire IS NOT NULL THEN
    -- One indexed update per key: a join with json_to_recordset is planned for 100 rows, and with
    -- the records table large that plan scans it.
    FOR k IN SELECT * FROM json_to_recordset(p_expire->'keys') AS x(collection text, owner_id text, id text) LOOP
      UPDATE ${s}.records SET expires_at = (p_expire->>'at')::bigint, version = version + 1
        WHERE collection = k.collection AND owner_id = k.owner_id AND id = k.id AND (expires_at IS NULL OR expires_at > p_now);
    END LOOP;
  END IF;
  RETURN NEXT r;
END
$fn$;

-- Admission counts an owner's live records (the per-owner cap, one live run per workflow) by state:
-- without this index it walked every record the owner still has, finished ones included, so an
-- admission cost grew with the owner's history. A change of state is then no HOT update (a run's
-- begin and end); a checkpoint that keeps the state still is.
CREATE INDEX records_by_owner_state ON ${s}.records (collection, owner_id, state) WHERE state IS NOT NULL;

-- write_outbox (migration 2) again, one entry at a time for the same reason: its DELETE … USING
-- json_to_recordset was planned for 100 entries and scanned the records table for the usual one.
CREATE OR REPLACE FUNCTION ${s}.write_outbox(p_now bigint, p_entries json) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  e record;
BEGIN
  IF p_entries IS NULL THEN RETURN; END IF;
  FOR e IN SELECT * FROM json_to_recordset(p_entries) AS x(
      collection text, owner_id text, id text, scope text, state text, created_at bigint, expires_at bigint,
      lease_holder text, lease_expires_at bigint, data json) LOOP
    DELETE FROM ${s}.records WHERE collection = e.collection AND owner_id = e.owner_id AND id = e.id AND expires_at <= p_now;
    INSERT INTO ${s}.records (collection, owner_id, id, scope, state, created_at, expires_at, lease_holder, lease_expires_at, data)
      VALUES (e.collection, e.owner_id, e.id, e.scope, e.state, e.created_at, e.expires_at, e.lease_holder, e.lease_expires_at, e.data)
      ON CONFLICT DO NOTHING;
  END LOOP;
END
$fn$;
`,
};
