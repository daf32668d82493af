// Schema version 8: a record inserted with its first journal items, in the same statement and
// transaction (decision 2810: a workflow run's plan is one of its items). insert_record gains an
// overload with two more parameters than version 2's (the items' keys and their data as a json
// array) that calls version 2's and, only when that inserted the record, writes the items. Versions
// 1–7 stay as they were: an instance of the previous build keeps inserting without items.
import type { Migration } from './migration.js';

export const insertWithItemsSchema: Migration = {
  version: 8,
  name: 'records inserted with their first journal items',
  sql: ({ id: s }) => `
CREATE FUNCTION ${s}.insert_record(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_scope text, p_state text, p_created bigint, p_expires bigint,
  p_lease_holder text, p_lease_expires bigint, p_data json,
  p_cap_max integer, p_cap_states text[], p_exclusive_states text[],
  p_outbox json, p_item_keys text[], p_item_data json
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  result json;
BEGIN
  result := ${s}.insert_record(p_collection, p_owner, p_id, p_now, p_scope, p_state, p_created, p_expires,
    p_lease_holder, p_lease_expires, p_data, p_cap_max, p_cap_states, p_exclusive_states, p_outbox);
  IF result->>'outcome' = 'inserted' AND p_item_keys IS NOT NULL THEN
    INSERT INTO ${s}.run_items (collection, owner_id, run_id, key, data)
      SELECT p_collection, p_owner, p_id, item.key, item.data
        FROM ROWS FROM (unnest(p_item_keys), json_array_elements(p_item_data)) AS item(key, data)
      ON CONFLICT (collection, owner_id, run_id, key) DO UPDATE SET data = excluded.data;
  END IF;
  RETURN result;
END
$fn$;
`,
};
