// A thread's CPU time as Linux keeps it per thread (/proc/self/task/<tid>/schedstat, first field:
// nanoseconds spent on a CPU), readable by any thread of the process. A pool bounds what a request did
// with it rather than how long its thread waited for a core: a thread that other load, or its own low
// priority, keeps off the CPU is not charged for the wait. Where the file does not exist (not Linux)
// there is no clock, and bounds count wall time. It advances at the scheduler's tick (a few ms).
import { readFileSync, readlinkSync } from 'node:fs';

/** The calling thread's CPU clock (a path for `readCpuMs`), or null where there is none. */
export function ownCpuClock(): string | null {
  try {
    const clock = `/proc/self/task/${readlinkSync('/proc/thread-self').split('/').pop() ?? ''}/schedstat`;
    return readCpuMs(clock) === null ? null : clock;
  } catch {
    return null;
  }
}

/** Milliseconds the clock's thread has run so far; null once the thread is gone. */
export function readCpuMs(clock: string): number | null {
  try {
    const ns = Number(readFileSync(clock, 'latin1').split(' ', 1)[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}
