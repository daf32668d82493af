// Schema version 1: the storage port's tables and the functions that make its compound operations
// one round trip each. All time is an epoch-ms bigint parameter from the service's clock; nothing
// here reads now(). Key columns use the "C" collation: byte order, as the memory provider sorts ids.
//
//   records      every owned record (collection, owner_id, id); its run journal's last sequence;
//                run_items and run_events hang off it and go with it (ON DELETE CASCADE)
//   rate_windows fixed one-minute windows per (policy, key)           UNLOGGED: lost on a crash, harmless
//   slots        concurrency slots per (kind, key), leased by holder  UNLOGGED: they lapse anyway
//   blobs        owned byte blobs (uploaded archives)
import type { Migration } from './migration.js';
import { applyChangeFunction } from './apply-change-function.js';

export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema: records, run journal, rate windows, slots, blobs',
  sql: (names) => {
    const { id: s, literal } = names;
    return `
CREATE TABLE ${s}.records (
  collection       text COLLATE "C" NOT NULL,
  owner_id         text COLLATE "C" NOT NULL,
  id               text COLLATE "C" NOT NULL,
  scope            text COLLATE "C",
  state            text COLLATE "C",
  created_at       bigint NOT NULL,
  expires_at       bigint,
  version          integer NOT NULL DEFAULT 1,
  lease_holder     text COLLATE "C",
  lease_expires_at bigint,
  last_seq         bigint NOT NULL DEFAULT 0,
  data             json NOT NULL,
  PRIMARY KEY (collection, owner_id, id)
) WITH (fillfactor = 80);
-- Lists (newest first, keyset cursor), expiry sweeps, lease renewal by holder, lapsed-lease scans.
-- state is in no index, so a checkpoint that changes only state, data and last_seq stays a HOT update.
CREATE INDEX records_by_owner_created ON ${s}.records (collection, owner_id, created_at, id);
CREATE INDEX records_by_expiry ON ${s}.records (collection, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX records_by_lease_holder ON ${s}.records (lease_holder) WHERE lease_holder IS NOT NULL;
CREATE INDEX records_by_lease_expiry ON ${s}.records (collection, lease_expires_at) WHERE lease_holder IS NOT NULL;

CREATE TABLE ${s}.run_items (
  collection text COLLATE "C" NOT NULL,
  owner_id   text COLLATE "C" NOT NULL,
  run_id     text COLLATE "C" NOT NULL,
  key        text COLLATE "C" NOT NULL,
  data       json NOT NULL,
  PRIMARY KEY (collection, owner_id, run_id, key),
  FOREIGN KEY (collection, owner_id, run_id) REFERENCES ${s}.records (collection, owner_id, id) ON DELETE CASCADE
);

CREATE TABLE ${s}.run_events (
  collection text COLLATE "C" NOT NULL,
  owner_id   text COLLATE "C" NOT NULL,
  run_id     text COLLATE "C" NOT NULL,
  seq        bigint NOT NULL,
  event      json NOT NULL,
  PRIMARY KEY (collection, owner_id, run_id, seq),
  FOREIGN KEY (collection, owner_id, run_id) REFERENCES ${s}.records (collection, owner_id, id) ON DELETE CASCADE
);

CREATE UNLOGGED TABLE ${s}.rate_windows (
  policy     text COLLATE "C" NOT NULL,
  key        text COLLATE "C" NOT NULL,
  started_at bigint NOT NULL,
  count      integer NOT NULL,
  PRIMARY KEY (policy, key)
);

CREATE UNLOGGED TABLE ${s}.slots (
  id         text COLLATE "C" PRIMARY KEY,
  kind       text COLLATE "C" NOT NULL,
  key        text COLLATE "C" NOT NULL,
  holder     text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX slots_by_group ON ${s}.slots (kind, key);
CREATE INDEX slots_by_holder ON ${s}.slots (holder);

CREATE TABLE ${s}.blobs (
  owner_id text COLLATE "C" NOT NULL,
  key      text COLLATE "C" NOT NULL,
  bytes    bytea NOT NULL,
  PRIMARY KEY (owner_id, key)
);
-- Archives arrive compressed: storing them out of line without another compression pass.
ALTER TABLE ${s}.blobs ALTER COLUMN bytes SET STORAGE EXTERNAL;

-- Insert unless a live record has the key ('exists' returns it) or an admission rule refuses. With
-- rules, inserts of one (collection, owner) are serialised by an advisory transaction lock, so a cap
-- counted here cannot be overtaken by a racing insert. An expired predecessor goes first, with its
-- items and events.
CREATE FUNCTION ${s}.insert_record(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_scope text, p_state text, p_created bigint, p_expires bigint,
  p_lease_holder text, p_lease_expires bigint, p_data json,
  p_cap_max integer, p_cap_states text[], p_exclusive_states text[]
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  r ${s}.records;
BEGIN
  IF p_cap_max IS NOT NULL OR p_exclusive_states IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(${literal} || '/records/' || p_collection || '/' || p_owner, 0));
  END IF;
  FOR attempt IN 1..3 LOOP
    SELECT * INTO r FROM ${s}.records
      WHERE collection = p_collection AND owner_id = p_owner AND id = p_id AND (expires_at IS NULL OR expires_at > p_now);
    IF FOUND THEN
      RETURN json_build_object('outcome', 'exists', 'record', row_to_json(r));
    END IF;
    IF p_exclusive_states IS NOT NULL AND EXISTS (
      SELECT 1 FROM ${s}.records
        WHERE collection = p_collection AND owner_id = p_owner AND scope IS NOT DISTINCT FROM p_scope
          AND state = ANY (p_exclusive_states) AND (expires_at IS NULL OR expires_at > p_now)
    ) THEN
      RETURN json_build_object('outcome', 'scope-busy');
    END IF;
    IF p_cap_max IS NOT NULL AND (
      SELECT count(*) FROM ${s}.records
        WHERE collection = p_collection AND owner_id = p_owner AND state = ANY (p_cap_states)
          AND (expires_at IS NULL OR expires_at > p_now)
    ) >= p_cap_max THEN
      RETURN json_build_object('outcome', 'owner-cap');
    END IF;
    DELETE FROM ${s}.records WHERE collection = p_collection AND owner_id = p_owner AND id = p_id AND expires_at <= p_now;
    INSERT INTO ${s}.records (collection, owner_id, id, scope, state, created_at, expires_at, lease_holder, lease_expires_at, data)
      VALUES (p_collection, p_owner, p_id, p_scope, p_state, p_created, p_expires, p_lease_holder, p_lease_expires, p_data)
      ON CONFLICT DO NOTHING
      RETURNING * INTO r;
    IF FOUND THEN
      RETURN json_build_object('outcome', 'inserted', 'record', row_to_json(r));
    END IF;
  END LOOP;
  RAISE EXCEPTION 'insert_record: the key kept changing under concurrent writers';
END
$fn$;

-- Insert or replace: a live record is updated in place (version + 1, lease kept unless given); an
-- expired or missing one is (re)created at version 1 without its predecessor's items and events.
CREATE FUNCTION ${s}.put_record(
  p_collection text, p_owner text, p_id text, p_now bigint,
  p_scope text, p_state text, p_created bigint, p_expires bigint,
  p_set_lease boolean, p_lease_holder text, p_lease_expires bigint, p_data json
) RETURNS SETOF ${s}.records LANGUAGE plpgsql AS $fn$
BEGIN
  FOR attempt IN 1..3 LOOP
    RETURN QUERY UPDATE ${s}.records SET
        scope = p_scope, state = p_state, expires_at = p_expires, data = p_data,
        lease_holder = CASE WHEN p_set_lease THEN p_lease_holder ELSE lease_holder END,
        lease_expires_at = CASE WHEN p_set_lease THEN p_lease_expires ELSE lease_expires_at END,
        version = version + 1
      WHERE collection = p_collection AND owner_id = p_owner AND id = p_id AND (expires_at IS NULL OR expires_at > p_now)
      RETURNING *;
    IF FOUND THEN RETURN; END IF;
    DELETE FROM ${s}.records WHERE collection = p_collection AND owner_id = p_owner AND id = p_id AND expires_at <= p_now;
    RETURN QUERY INSERT INTO ${s}.records (collection, owner_id, id, scope, state, created_at, expires_at, lease_holder, lease_expires_at, data)
      VALUES (p_collection, p_owner, p_id, p_scope, p_state, p_created, p_expires, p_lease_holder, p_lease_expires, p_data)
      ON CONFLICT DO NOTHING
      RETURNING *;
    IF FOUND THEN RETURN; END IF;
  END LOOP;
  RAISE EXCEPTION 'put_record: the key kept changing under concurrent writers';
END
$fn$;

-- One journal commit (and every guarded record update): under the record's row lock, apply the
-- patch when the guard holds, upsert the items, append the events with the next gap-free sequence
-- numbers and notify watchers on every instance with the newest one. Nothing is written when the
-- record is missing or the guard refuses (no row returned). p_notify is the payload prefix; the
-- newest sequence number is appended to it.
${applyChangeFunction(names, 'CREATE FUNCTION', `    PERFORM pg_notify(${literal}, p_notify || r.last_seq);\n`)}
-- A concurrency slot, when fewer than p_limit live ones of (kind, key) are held; acquisitions of one
-- (kind, key) are serialised by an advisory transaction lock. Lapsed slots of the group go first.
CREATE FUNCTION ${s}.acquire_slot(
  p_kind text, p_key text, p_limit integer, p_holder text, p_now bigint, p_expires bigint, p_id text
) RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(${literal} || '/slots/' || p_kind || '/' || p_key, 0));
  DELETE FROM ${s}.slots WHERE kind = p_kind AND key = p_key AND expires_at <= p_now;
  IF (SELECT count(*) FROM ${s}.slots WHERE kind = p_kind AND key = p_key) >= p_limit THEN
    RETURN false;
  END IF;
  INSERT INTO ${s}.slots (id, kind, key, holder, expires_at) VALUES (p_id, p_kind, p_key, p_holder, p_expires);
  RETURN true;
END
$fn$;
`;
  },
};
