// Schema version 4: rate windows lend permits in blocks (decision 2801). `granted` holds what the
// last take of a window lent, so the one upsert that lends can say how many it lent. Nothing of
// versions 1–3 changes: an instance of the previous build keeps taking one permit per statement
// against this schema during a rolling deploy, and both kinds of take count in the same window.
import type { Migration } from './migration.js';

export const ratePermitsSchema: Migration = {
  version: 4,
  name: 'rate windows: permits lent in blocks',
  sql: ({ id: s }) => `
ALTER TABLE ${s}.rate_windows ADD COLUMN granted integer NOT NULL DEFAULT 0;
`,
};
