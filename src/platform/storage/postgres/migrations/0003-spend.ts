// Schema version 3: spend totals per owner and period (DESIGN §16, decision 1601). Logged: spend is
// money, and a crash must not forget what was spent today. Nothing in versions 1–2 changes, so an
// instance of the previous build keeps working against this schema during a rolling deploy.
import type { Migration } from './migration.js';

export const spendSchema: Migration = {
  version: 3,
  name: 'spend: totals per owner and period',
  sql: ({ id: s }) => `
CREATE TABLE ${s}.spend (
  owner_id   text COLLATE "C" NOT NULL,
  period     text COLLATE "C" NOT NULL,
  spent_nano bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (owner_id, period)
);
CREATE INDEX spend_expires ON ${s}.spend (expires_at);
`,
};
