// Schema version 7: a run's items and events no longer carry foreign keys to its record (decision
// 2809). Every row apply_change inserts already stands under the run record's row lock, taken by the
// same statement, so the foreign key's check of each inserted row — a trigger call, a lookup and a key
// share lock per item and per event — re-proved what was known, and cost about an eighth of a
// workflow run's database CPU. What the keys' ON DELETE CASCADE did, a statement trigger on records
// does now: whatever deletes records (the sweep, a delete, the replacement of an expired key) deletes
// their items and events in the same statement and transaction, record by record through the primary
// keys. An instance of the previous build keeps working against this schema: its deletes cascade
// through the trigger as they did through the keys.
import type { Migration } from './migration.js';

export const journalWithoutForeignKeysSchema: Migration = {
  version: 7,
  name: 'run items and events without foreign keys; deleted with their record by a trigger',
  sql: ({ id: s }) => `
DO $drop$
DECLARE
  c record;
BEGIN
  FOR c IN SELECT conname, conrelid::regclass AS rel FROM pg_constraint
      WHERE contype = 'f' AND conrelid IN ('${s}.run_items'::regclass, '${s}.run_events'::regclass) LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.rel, c.conname);
  END LOOP;
END
$drop$;

CREATE FUNCTION ${s}.delete_journal_of_records() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  g record;
BEGIN
  -- One indexed delete per record: a join with the transition table could be planned as a scan.
  FOR g IN SELECT collection, owner_id, id FROM gone LOOP
    DELETE FROM ${s}.run_items WHERE collection = g.collection AND owner_id = g.owner_id AND run_id = g.id;
    DELETE FROM ${s}.run_events WHERE collection = g.collection AND owner_id = g.owner_id AND run_id = g.id;
  END LOOP;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER records_journal_deleted AFTER DELETE ON ${s}.records
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION ${s}.delete_journal_of_records();
`,
};
