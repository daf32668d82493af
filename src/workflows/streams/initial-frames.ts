// What a watcher is sent when it attaches, before live frames. Without Last-Event-ID: SNAPSHOT, and
// for a Blocked run PARKED after it. With one: the frames the log still holds after that sequence
// (stale PARKED frames of gates since answered are left out), or, when the log no longer holds them
// all, GAP { droppedCount } followed by a fresh SNAPSHOT. `done` means the stream ends after these.
import { closesStream, type ProgressFrame } from '../events.js';
import type { LogEntry } from '../runs/run-log.js';
import { isFinal } from '../runs/run-status.js';
import type { WorkflowRun } from '../runs/workflow-run.js';
import { snapshotFrame } from './snapshot-frame.js';

export interface InitialFrames {
  readonly frames: ReadonlyArray<{ readonly frame: ProgressFrame; readonly id: number }>;
  readonly done: boolean;
}

export function initialFrames(run: WorkflowRun, lastEventId: number | undefined): InitialFrames {
  const last = run.log.lastSequence;
  const frames: Array<{ frame: ProgressFrame; id: number }> = [];
  if (lastEventId !== undefined && lastEventId <= last) {
    const replay = run.log.since(lastEventId);
    if (replay !== undefined) return resumed(run, replay, lastEventId);
    const firstRetained = run.log.firstRetained;
    frames.push({ frame: { type: 'GAP', droppedCount: firstRetained - 1 - lastEventId }, id: firstRetained - 1 });
  }
  frames.push({ frame: snapshotFrame(run), id: last });
  if (isFinal(run.status)) return { frames, done: true };
  if (run.status === 'Blocked' && run.parked !== null) {
    frames.push({ frame: run.parked.frame(), id: run.parked.sequence });
    return { frames, done: true };
  }
  return { frames, done: false };
}

function resumed(run: WorkflowRun, replay: readonly LogEntry[], lastEventId: number): InitialFrames {
  const blockedOn = run.status === 'Blocked' ? run.parked : null;
  const frames = replay
    .filter((entry) => entry.frame().type !== 'PARKED' || entry === blockedOn)
    .map((entry): { frame: ProgressFrame; id: number } => ({ frame: entry.frame(), id: entry.sequence }));
  if (blockedOn !== null && blockedOn.sequence <= lastEventId) frames.push({ frame: blockedOn.frame(), id: blockedOn.sequence });
  return { frames, done: isFinal(run.status) || blockedOn !== null || frames.some((f) => closesStream(f.frame)) };
}
