// The names every statement and migration is written with, derived once from the configured schema:
// the schema as a quoted identifier, as a string literal (advisory-lock keys, the notify channel baked
// into functions), and the one LISTEN/NOTIFY channel of the deployment (named after its schema).
import pg from 'pg';

export interface SchemaNames {
  /** The schema as written in configuration. */
  readonly schema: string;
  /** `"portcullis"`: prefix for every table and function. */
  readonly id: string;
  /** `'portcullis'`. */
  readonly literal: string;
  /** The notify channel (the schema name), as a quoted identifier for LISTEN. */
  readonly channelId: string;
}

export function schemaNames(schema: string): SchemaNames {
  return { schema, id: pg.escapeIdentifier(schema), literal: pg.escapeLiteral(schema), channelId: pg.escapeIdentifier(schema) };
}
