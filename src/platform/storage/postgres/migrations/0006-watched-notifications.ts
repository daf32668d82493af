// Schema version 6: a journal commit NOTIFYs only when an instance other than the writer watches the
// run (decision 2808). Instances register the runs they follow in journal_watchers (unlogged: a
// watch lives no longer than the instances' connections, and each instance writes its watches again
// after a reconnect and every ten seconds), and apply_change (version 1's, replaced in place) sends
// its notification only when such a watch exists and has not lapsed. A commit nobody else follows —
// nearly every checkpoint — sends none: no commit-time lock on the database's notification queue, no
// wake-up of every instance's listening connection. The payload is unchanged (`j <writer> <topic> `
// then the newest sequence number). During a rolling deploy an instance of the previous build
// registers no watches, so its streams of runs executing elsewhere fall back to their periodic
// re-read (a second) until it is replaced.
import type { Migration } from './migration.js';
import { applyChangeFunction } from './apply-change-function.js';

export const watchedNotificationsSchema: Migration = {
  version: 6,
  name: 'journal notifications only for watched runs',
  sql: (names) => {
    const { id: s, literal } = names;
    return `
CREATE UNLOGGED TABLE ${s}.journal_watchers (
  topic      text COLLATE "C" NOT NULL,
  holder     text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (topic, holder)
);

${applyChangeFunction(
  names,
  'CREATE OR REPLACE FUNCTION',
  `    -- The payload is "<kind> <writer> <topic> ": only another instance's live watch of the topic wants it.
    IF EXISTS (
      SELECT 1 FROM ${s}.journal_watchers w
        WHERE w.topic = split_part(p_notify, ' ', 3) AND w.holder <> split_part(p_notify, ' ', 2) AND w.expires_at > p_now
    ) THEN
      PERFORM pg_notify(${literal}, p_notify || r.last_seq);
    END IF;
`,
)}`;
  },
};
