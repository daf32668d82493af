// Serves one watcher of a run's progress, from any instance: the initial frames, then live frames
// followed from the run's journal (woken by the executing instance's commits) through the watcher's
// bounded buffer, until FINISHED or PARKED or the client leaves. Frames are flushed once per event-loop
// turn and only while the socket is writable, so a watcher that falls behind loses its oldest frames
// (GAP), never the run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { followJournal } from '../../runs/index.js';
import { closesStream, type ProgressFrame } from '../events.js';
import { runKey, type RunStore } from '../runs/run-store.js';
import type { RunEvent } from '../runs/workflow-run.js';
import type { FrameSink } from './frame-sink.js';
import { initialFrames } from './initial-frames.js';
import { ProgressWatcher } from './progress-watcher.js';

export interface ProgressStreamOptions {
  readonly bufferFrames: number;
  /** Parsed `Last-Event-ID`, when the client sent a usable one. */
  readonly lastEventId: number | undefined;
}

export async function serveProgressStream(
  runs: RunStore,
  run: { readonly ownerId: string; readonly jobId: string },
  sink: FrameSink,
  options: ProgressStreamOptions,
): Promise<void> {
  const watcher = new ProgressWatcher(options.bufferFrames);
  const stop = new AbortController();
  const signal = AbortSignal.any([sink.signal, stop.signal]);
  const write = async (frame: ProgressFrame, id: number): Promise<boolean> => {
    await sink.writable();
    return !sink.signal.aborted && sink.send(frame, id);
  };
  let following: Promise<void> = Promise.resolve();
  try {
    const initial = await initialFrames(runs, run, run.jobId, options.lastEventId);
    if (initial === undefined) return;
    for (const { frame, id } of initial.frames) if (!(await write(frame, id))) return;
    if (initial.done) return;
    following = (async () => {
      for await (const entry of followJournal<RunEvent>(runs.journal, runKey(run, run.jobId), initial.after, signal)) {
        watcher.push(entry);
        if (entry.event.type === 'FINISHED' || entry.event.type === 'PARKED') return;
      }
    })();
    while (!signal.aborted) {
      await watcher.wait(signal);
      await nextTurn();
      for (let next = watcher.next(); next !== undefined; next = watcher.next()) {
        if (!(await write(next.frame, next.id))) return;
        if (closesStream(next.frame)) return;
      }
    }
  } finally {
    stop.abort();
    await following.catch(() => undefined);
    sink.close();
  }
}

/** `Last-Event-ID` as a sequence number, or undefined when absent or not a plain non-negative integer. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
