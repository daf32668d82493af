// Removes from the staging root what this host wrote and nothing owns any more: directories and
// uploads of processes of this host that are gone (a SIGKILL leaves them), and this process's own
// directories that no live handle staged here holds. Anything else in TempRoot is never touched.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writerPid } from './staging-names.js';

export interface LeftoverOptions {
  readonly stagingRoot: string;
  /** Whether a directory of this process is still held by a handle staged here. */
  readonly owned: (dir: string) => boolean;
  readonly isAlive?: (pid: number) => boolean;
}

export async function removeLeftovers(options: LeftoverOptions): Promise<string[]> {
  const isAlive = options.isAlive ?? processIsAlive;
  let names: string[];
  try {
    names = await readdir(options.stagingRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = writerPid(name);
    if (pid === null) continue;
    const path = join(options.stagingRoot, name);
    const mine = pid === process.pid;
    // This process's uploads are in flight; its directories go only when no handle holds them.
    if (mine ? name.startsWith('upload-') || options.owned(path) : isAlive(pid)) continue;
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
    removed.push(name);
  }
  return removed;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
