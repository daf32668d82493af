// Schema version 2: an outbox written in the same transaction as the change that causes it (DESIGN
// §14, decision 1301). Outbox entries are rows of `records` like any other; write_outbox inserts
// those whose key no live row has. apply_change and insert_record gain an overload with one more
// parameter (the outbox as a json array of records rows) that calls the version-1 function and then
// writes the outbox only when that wrote something. The version-1 functions stay as they were, so an
// instance of the previous build keeps working against this schema during a rolling deploy.
import type { Migration } from './migration.js';

export const outboxSchema: Migration = {
  version: 2,
  name: 'outbox: entries written with a record change or a journal commit',
  sql: ({ id: s }) => `
CREATE FUNCTION ${s}.write_outbox(p_now bigint, p_entries json) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_entries IS NULL THEN RETURN; END IF;
  DELETE FROM ${s}.records r USING json_to_recordset(p_entries) AS e(collection text, owner_id text, id text)
    WHERE r.collection = e.collection AND r.owner_id = e.owner_id AND r.id = e.id AND r.expires_at <= p_now;
  INSERT INTO ${s}.records (collection, owner_id, id, scope, state, created_at, expires_at, lease_holder, lease_expires_at, data)
    SELECT e.collection, e.owner_id, e.id, e.scope, e.state, e.created_at, e.expires_at, e.lease_holder, e.lease_expires_at, e.data
      FROM json_to_recordset(p_entries) AS e(
        collection text, owner_id text, id text, scope text, state text, created_at bigint, expires_at bigint,
        lease_holder text, lease_expires_at bigint, data json)
    ON CONFLICT DO NOTHING;
END
$fn$;

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
  p_outbox json
) RETURNS SETOF ${s}.records LANGUAGE plpgsql AS $fn$
DECLARE
  r ${s}.records;
BEGIN
  SELECT * INTO r FROM ${s}.apply_change(p_collection, p_owner, p_id, p_now, p_patch, p_set_state, p_state, p_set_scope, p_scope,
    p_set_expires, p_expires, p_set_data, p_data, p_set_lease, p_lease_holder, p_lease_expires,
    p_guard_version, p_guard_states, p_guard_holder, p_item_keys, p_item_data, p_events, p_notify);
  IF NOT FOUND THEN RETURN; END IF;
  PERFORM ${s}.write_outbox(p_now, p_outbox);
  RETURN NEXT r;
END
$fn$;

CREATE FUNCTION ${s}.insert_record(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_scope text, p_state text, p_created bigint, p_expires bigint,
  p_lease_holder text, p_lease_expires bigint, p_data json,
  p_cap_max integer, p_cap_states text[], p_exclusive_states text[],
  p_outbox json
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  result json;
BEGIN
  result := ${s}.insert_record(p_collection, p_owner, p_id, p_now, p_scope, p_state, p_created, p_expires,
    p_lease_holder, p_lease_expires, p_data, p_cap_max, p_cap_states, p_exclusive_states);
  IF result->>'outcome' = 'inserted' THEN
    PERFORM ${s}.write_outbox(p_now, p_outbox);
  END IF;
  RETURN result;
END
$fn$;
`,
};
