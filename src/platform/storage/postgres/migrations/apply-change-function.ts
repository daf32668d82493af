// The body of apply_change, the one call behind every journal commit and guarded record update, as
// schema version 1 created it and version 6 replaced it: the same function but for when it notifies.
// Shared so the two stay one text; each migration's output is fixed (migrations are never edited
// once released), and this builder reproduces version 1's byte for byte.
import type { SchemaNames } from '../schema-names.js';

/**
 * `create` is `CREATE FUNCTION` or `CREATE OR REPLACE FUNCTION`; `notify` the plpgsql statements run
 * after the events are appended (indented four spaces, each line ending in a newline).
 */
export function applyChangeFunction({ id: s }: SchemaNames, create: string, notify: string): string {
  return `${create} ${s}.apply_change(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_patch boolean,
  p_set_state boolean, p_state text,
  p_set_scope boolean, p_scope text,
  p_set_expires boolean, p_expires bigint,
  p_set_data boolean, p_data json,
  p_set_lease boolean, p_lease_holder text, p_lease_expires bigint,
  p_guard_version integer, p_guard_states text[], p_guard_holder text,
  p_item_keys text[], p_item_data json, p_events json, p_notify text
) RETURNS SETOF ${s}.records LANGUAGE plpgsql AS $fn$
DECLARE
  n integer := coalesce(json_array_length(p_events), 0);
  r ${s}.records;
BEGIN
  IF p_patch OR n > 0 THEN
    UPDATE ${s}.records SET
        state = CASE WHEN p_set_state THEN p_state ELSE state END,
        scope = CASE WHEN p_set_scope THEN p_scope ELSE scope END,
        expires_at = CASE WHEN p_set_expires THEN p_expires ELSE expires_at END,
        data = CASE WHEN p_set_data THEN p_data ELSE data END,
        lease_holder = CASE WHEN p_set_lease THEN p_lease_holder ELSE lease_holder END,
        lease_expires_at = CASE WHEN p_set_lease THEN p_lease_expires ELSE lease_expires_at END,
        version = CASE WHEN p_patch THEN version + 1 ELSE version END,
        last_seq = last_seq + n
      WHERE collection = p_collection AND owner_id = p_owner AND id = p_id
        AND (expires_at IS NULL OR expires_at > p_now)
        AND (p_guard_version IS NULL OR version = p_guard_version)
        AND (p_guard_states IS NULL OR state = ANY (p_guard_states))
        AND (p_guard_holder IS NULL OR lease_holder = p_guard_holder)
      RETURNING * INTO r;
  ELSE
    SELECT * INTO r FROM ${s}.records
      WHERE collection = p_collection AND owner_id = p_owner AND id = p_id AND (expires_at IS NULL OR expires_at > p_now)
      FOR KEY SHARE;
  END IF;
  IF NOT FOUND THEN RETURN; END IF;
  IF p_item_keys IS NOT NULL THEN
    INSERT INTO ${s}.run_items (collection, owner_id, run_id, key, data)
      SELECT p_collection, p_owner, p_id, item.key, item.data
        FROM ROWS FROM (unnest(p_item_keys), json_array_elements(p_item_data)) AS item(key, data)
      ON CONFLICT (collection, owner_id, run_id, key) DO UPDATE SET data = excluded.data;
  END IF;
  IF n > 0 THEN
    INSERT INTO ${s}.run_events (collection, owner_id, run_id, seq, event)
      SELECT p_collection, p_owner, p_id, r.last_seq - n + e.ordinality, e.value
        FROM json_array_elements(p_events) WITH ORDINALITY AS e(value, ordinality);
${notify}  END IF;
  RETURN NEXT r;
END
$fn$;
`;
}
