// PostgreSQL settings: the connection string (a libpq URI; a secret, so refusals never echo it) and
// the schema name (an identifier PostgreSQL accepts for a user schema, used quoted, exactly as written).
import { isPostgresUri } from '../../storage/postgres/connection/connection-string.js';
import { accept, isBlank, refuse, type Codec } from './codec.js';

export const postgresConnectionStringCodec: Codec<string | null> = {
  display: 'libpq URI, secret, optional',
  decode(raw) {
    if (isBlank(raw)) return accept(null);
    if (typeof raw !== 'string') return refuse('must be a string');
    const text = raw.trim();
    return isPostgresUri(text) ? accept(text) : refuse('must be a libpq URI such as postgres://user:password@host:5432/database');
  },
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const postgresSchemaCodec: Codec<string> = {
  display: 'identifier',
  decode(raw) {
    if (typeof raw !== 'string' || !IDENTIFIER.test(raw.trim())) {
      return refuse('must be a PostgreSQL identifier: a letter or _ then letters, digits or _, at most 63 characters');
    }
    const name = raw.trim();
    return /^pg_/i.test(name) ? refuse('must not start with pg_ (reserved for system schemas)') : accept(name);
  },
};
