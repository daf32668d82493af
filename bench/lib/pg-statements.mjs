// What one database executed between two moments, from a monitoring connection to the same server:
// pg_stat_statements (when the server preloads it: every top-level statement, utility statements such
// as BEGIN and COMMIT included when track_utility is on, with its calls and execution time) and WAL
// bytes written (the whole server). `begin()` resets pg_stat_statements and notes the WAL position;
// `end()` reads both. The monitor should connect to another database than the one measured, so its
// own queries stay out of the figures (pg_stat_statements is filtered by the measured database).
//
// Not pg_stat_database's transaction counters: a backend flushes them about once a second while busy
// and up to ten seconds after it goes idle, so over a window of seconds they are off by whole seconds
// of work. Statement counts and the WAL position are exact.

/** @param client a connected `pg` Client (not to `database`); `database` the name of the database measured. */
export async function statementCounter(client, database) {
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_stat_statements'`);
  const perStatement = rows[0].n === 1;
  const dbid = (await client.query('SELECT oid FROM pg_database WHERE datname = $1', [database])).rows[0].oid;
  const walPosition = async () => (await client.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal`)).rows[0].wal;
  let start;
  return {
    /** true when pg_stat_statements is there (statements and per-statement rows), false otherwise. */
    perStatement,
    async begin() {
      if (perStatement) await client.query('SELECT pg_stat_statements_reset()');
      start = await walPosition();
    },
    /**
     * { statements, walBytes, rows: [{ query, calls, totalMs, meanMs, rows }] } since begin(),
     * busiest first; statements and rows are null without pg_stat_statements.
     */
    async end() {
      const wal = await walPosition();
      let statements = null;
      let list = null;
      if (perStatement) {
        const result = await client.query(
          `SELECT query, calls::float8 AS calls, total_exec_time AS total_ms, rows::float8 AS rows
           FROM pg_stat_statements WHERE dbid = $1 ORDER BY calls DESC`,
          [dbid],
        );
        list = result.rows.map((r) => ({ query: r.query, calls: r.calls, totalMs: r.total_ms, meanMs: r.total_ms / r.calls, rows: r.rows }));
        statements = list.reduce((sum, r) => sum + r.calls, 0);
      }
      return { statements, walBytes: wal - start, rows: list };
    },
  };
}

/**
 * A statement's text on one line, its schema prefix (`"name".` or `name.`) dropped, a select list of
 * more than three columns written `SELECT <n columns>` (so statements that read the same row differ
 * where they differ), cut to `width` characters.
 */
export function shortQuery(query, width = 110, schema) {
  let text = query.replace(/\s+/g, ' ').trim();
  if (schema !== undefined) text = text.split(`"${schema}".`).join('').split(`${schema}.`).join('');
  text = text.replace(/\bSELECT ((?:[\w.]+(?: AS \w+)?, ){3,}[\w.]+(?: AS \w+)?) FROM\b/g, (_, list) => `SELECT <${list.split(', ').length} columns> FROM`);
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
