// CPU time of a process and all its descendants, read from /proc (Linux only): for servers the
// benchmark does not start itself as Node children (PostgreSQL's postmaster and its backends), or
// to sum several processes at once. Each process's utime + stime; for the root also cutime + cstime,
// the time of descendants it has already reaped (a backend that exited between two readings keeps
// counting; only the root's, so a descendant that reaps children of its own loses them, which PostgreSQL's
// flat tree never does). Resolution is one clock tick (`getconf CLK_TCK`, usually 10 ms).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** The fields after `(comm)` of /proc/<pid>/stat (comm may hold spaces and parentheses), or undefined. */
function statFields(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone since the listing
  }
}

// After `(comm)`: [0] state, [1] ppid, … [11] utime, [12] stime, [13] cutime, [14] cstime (proc(5), fields 3.., 14–17).
const PPID = 1;
const UTIME = 11;

/** pid → parent pid of every process now alive. */
function parents() {
  const map = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== undefined) map.set(Number(entry), Number(fields[PPID]));
  }
  return map;
}

/** The pids of `root` and every live descendant. */
export function processTree(root) {
  const byParent = new Map();
  for (const [pid, ppid] of parents()) {
    if (!byParent.has(ppid)) byParent.set(ppid, []);
    byParent.get(ppid).push(pid);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(byParent.get(tree[i]) ?? []));
  return tree;
}

/** CPU milliseconds (user + system) used so far by each root's tree, summed; roots may be one pid or several. */
export function treeCpuMs(roots) {
  let ticks = 0;
  for (const root of [roots].flat()) {
    for (const pid of processTree(root)) {
      const fields = statFields(pid);
      if (fields === undefined) continue;
      ticks += Number(fields[UTIME]) + Number(fields[UTIME + 1]);
      if (pid === root) ticks += Number(fields[UTIME + 2]) + Number(fields[UTIME + 3]);
    }
  }
  return ticks * TICK_MS;
}

/** The postmaster's pid, from the first line of `<dataDir>/postmaster.pid`. */
export function postmasterPid(dataDir) {
  return Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n', 1)[0]);
}
