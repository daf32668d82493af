// Schema version 5: a journal commit may set the expiry of other records that end with the run (its
// plan) in the same transaction (decision 2805). apply_change gains an overload with one more
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
BEGIN
  SELECT * INTO r FROM ${s}.apply_change(p_collection, p_owner, p_id, p_now, p_patch, p_set_state, p_state, p_set_scope, p_scope,
    p_set_expires, p_expires, p_set_data, p_data, p_set_lease, p_lease_holder, p_lease_expires,
    p_guard_version, p_guard_states, p_guard_holder, p_item_keys, p_item_data, p_events, p_notify, p_outbox);
  IF NOT FOUND THEN RETURN; END IF;
  IF p_expire IS NOT NULL THEN
    UPDATE ${s}.records t SET expires_at = (p_expire->>'at')::bigint, version = t.version + 1
      FROM json_to_recordset(p_expire->'keys') AS k(collection text, owner_id text, id text)
      WHERE t.collection = k.collection AND t.owner_id = k.owner_id AND t.id = k.id
        AND (t.expires_at IS NULL OR t.expires_at > p_now);
  END IF;
  RETURN NEXT r;
END
$fn$;
`,
};
