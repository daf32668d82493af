// Measures the most work this thread's event loop did without turning: between two turns (a 1 ms
// timer), the CPU time the thread ran (/proc/self/task/<tid>/schedstat, first field). A request that
// holds the loop with work shows in it; time other processes kept the thread from a core does not, so
// the figure is the same on an idle and a loaded machine (decision 3503). Waits the thread spends
// asleep are not counted either. Where there is no schedstat (not Linux) it is wall time between turns,
// and load shows in it. What a request's latency looks like to a client is a benchmark's figure.
import { readFileSync } from 'node:fs';

export interface StallReport {
  /** The most CPU time the loop spent between two of its turns, in milliseconds. */
  readonly maxMs: number;
  /** Turns of the loop seen: a monitor that saw none measured nothing. */
  readonly turns: number;
  /** Whether this is CPU time (Linux), or wall time. */
  readonly cpuTime: boolean;
}

export interface StallMonitor {
  /** Resolves at the monitor's next turn, once what held the loop before it has been measured. */
  nextTurn(): Promise<void>;
  stop(): StallReport;
}

// This thread's scheduler statistics: the main thread's id is the process id (tests run on it).
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** Milliseconds this thread has run so far, or null without schedstat. */
function cpuMs(): number | null {
  try {
    const ran = Number(readFileSync(SCHEDSTAT, 'latin1').split(' ', 1)[0]);
    return Number.isFinite(ran) ? ran / 1e6 : null;
  } catch {
    return null;
  }
}

/** Starts watching the loop this is called on; `stop` reports what it saw. */
export function startStallMonitor(): StallMonitor {
  const cpuTime = cpuMs() !== null;
  const clock = (): number => (cpuTime ? (cpuMs() ?? 0) : performance.now());
  let last = clock();
  let maxMs = 0;
  let turns = 0;
  const waiters: Array<() => void> = [];
  const timer = setInterval(() => {
    const now = clock();
    maxMs = Math.max(maxMs, now - last);
    turns += 1;
    last = now;
    for (const turned of waiters.splice(0)) turned();
  }, 1);
  return {
    nextTurn: () => new Promise((resolve) => waiters.push(resolve)),
    stop: () => {
      clearInterval(timer);
      for (const turned of waiters.splice(0)) turned();
      return { maxMs, turns, cpuTime };
    },
  };
}
