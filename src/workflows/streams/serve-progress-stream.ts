// Serves one watcher of a run's progress, from any instance: the initial frames, then live frames
// followed from the run's journal (woken by the executing instance's commits) through the watcher's
// bounded buffer, until FINISHED or PARKED, the client leaves, or the host stops (`finish`: what is
// committed by then is sent, then the stream closes; the client re-attaches elsewhere with
// Last-Event-ID). Frames are flushed once per event-loop turn and only while the socket is writable,
// so a watcher that falls behind loses its oldest frames (GAP), never the run. While the storage
// cannot be reached the stream waits and resumes; it never throws at its caller.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { followJournal } from '../../runs/index.js';
import { closesStream, type ProgressFrame } from '../events.js';
import { workflowRunKey, type WorkflowRunStore } from '../runs/workflow-run-store.js';
import type { RunEvent } from '../runs/workflow-run.js';
import type { FrameSink } from './frame-sink.js';
import { initialFrames } from './initial-frames.js';
import { ProgressWatcher } from './progress-watcher.js';

export interface ProgressStreamOptions {
  readonly bufferFrames: number;
  /** Parsed `Last-Event-ID`, when the client sent a usable one. */
  readonly lastEventId: number | undefined;
  /** Aborted when the host stops: send what is committed, then close. */
  readonly finish: AbortSignal;
  /** Hears the storage failing (once) and working again, and anything else that ended the stream early. */
  readonly log: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

export async function serveProgressStream(
  runs: WorkflowRunStore,
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
  let followed = false;
  try {
    const initial = await initialFrames(runs, run, run.jobId, options.lastEventId);
    if (initial === undefined) return;
    for (const { frame, id } of initial.frames) if (!(await write(frame, id))) return;
    if (initial.done) return;
    // Handled at once: a follower that fails must never become an unhandled rejection.
    following = follow(runs, run, initial.after, watcher, signal, options).finally(() => {
      followed = true;
      watcher.wake();
    });
    while (!signal.aborted) {
      // The follower is done and everything it read was sent: the stream ends.
      if (followed && watcher.empty) return;
      await watcher.wait(signal);
      await nextTurn();
      for (let next = watcher.next(); next !== undefined; next = watcher.next()) {
        if (!(await write(next.frame, next.id))) return;
        if (closesStream(next.frame)) return;
      }
    }
  } catch (error) {
    options.log.warn({ err: error, jobId: run.jobId }, 'a workflow progress stream ended early');
  } finally {
    stop.abort();
    await following;
    sink.close();
  }
}

/** Pushes the run's journal events into the watcher until a closing event, the signal, or `finish`. */
async function follow(
  runs: WorkflowRunStore,
  run: { readonly ownerId: string; readonly jobId: string },
  after: number,
  watcher: ProgressWatcher,
  signal: AbortSignal,
  options: ProgressStreamOptions,
): Promise<void> {
  const outage = {
    failed: (err: unknown) => options.log.warn({ err, jobId: run.jobId }, 'a workflow progress stream is waiting for the storage'),
    succeeded: () => undefined,
  };
  try {
    for await (const entry of followJournal<RunEvent>(runs.journal, workflowRunKey(run, run.jobId), after, signal, { finish: options.finish, outage: once(outage) })) {
      watcher.push(entry);
      if (entry.event.type === 'FINISHED' || entry.event.type === 'PARKED') return;
    }
  } catch (error) {
    options.log.warn({ err: error, jobId: run.jobId }, 'following a workflow run’s journal failed');
  }
}

/** The outage hook that reports its first failure only (a stream has no recovery line of its own). */
function once(outage: { failed(err: unknown): void; succeeded(): void }): { failed(err: unknown): void; succeeded(): void } {
  let told = false;
  return {
    failed: (err) => {
      if (told) return;
      told = true;
      outage.failed(err);
    },
    succeeded: () => {
      told = false;
    },
  };
}

/** `Last-Event-ID` as a sequence number, or undefined when absent or not a plain non-negative integer. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
