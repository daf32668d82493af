// Serves one watcher of a run's progress: subscribes to the run log first (so nothing is missed),
// sends the initial frames, then live frames from the watcher's bounded buffer until FINISHED or
// PARKED or the client leaves. Frames are flushed once per event-loop turn and only while the
// socket is writable, so a watcher that falls behind loses its oldest frames (GAP), never the run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { closesStream, type ProgressFrame } from '../events.js';
import type { WorkflowRun } from '../runs/workflow-run.js';
import type { FrameSink } from './frame-sink.js';
import { initialFrames } from './initial-frames.js';
import { ProgressWatcher } from './progress-watcher.js';

export interface ProgressStreamOptions {
  readonly bufferFrames: number;
  /** Parsed `Last-Event-ID`, when the client sent a usable one. */
  readonly lastEventId: number | undefined;
}

export async function serveProgressStream(run: WorkflowRun, sink: FrameSink, options: ProgressStreamOptions): Promise<void> {
  const watcher = new ProgressWatcher(options.bufferFrames);
  const unsubscribe = run.log.subscribe((entry) => watcher.push(entry));
  const write = async (frame: ProgressFrame, id: number): Promise<boolean> => {
    await sink.writable();
    return !sink.signal.aborted && sink.send(frame, id);
  };
  try {
    const initial = initialFrames(run, options.lastEventId);
    for (const { frame, id } of initial.frames) if (!(await write(frame, id))) return;
    if (initial.done) return;
    while (!sink.signal.aborted) {
      await watcher.wait(sink.signal);
      await nextTurn();
      for (let next = watcher.next(); next !== undefined; next = watcher.next()) {
        if (!(await write(next.frame, next.id))) return;
        if (closesStream(next.frame)) return;
      }
    }
  } finally {
    unsubscribe();
    sink.close();
  }
}

/** `Last-Event-ID` as a sequence number, or undefined when absent or not a plain non-negative integer. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
