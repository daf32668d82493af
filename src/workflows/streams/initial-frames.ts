// What a watcher is sent when it attaches, before live frames, read from the run's journal on whichever
// instance it attached to. Without Last-Event-ID: SNAPSHOT (of the state after the journal's last event
// at that moment), and for a Blocked run PARKED after it. With one: every event the journal holds after
// that sequence (stale PARKED frames of gates since answered are left out), and the current PARKED when
// the run is Blocked on an approval still open (answered, the run is about to go on: the stream follows it). `after` is where live frames continue; `done` means the stream ends here.
import { closesStream, toLoggedFrame, type ProgressFrame } from '../events.js';
import { isFinal } from '../runs/run-status.js';
import { workflowRunKey, type WorkflowRunStore, type RunView } from '../runs/workflow-run-store.js';
import type { RunEvent } from '../runs/workflow-run.js';
import { snapshotFrame } from './snapshot-frame.js';

export interface InitialFrames {
  readonly frames: ReadonlyArray<{ readonly frame: ProgressFrame; readonly id: number }>;
  readonly done: boolean;
  readonly after: number;
}

const BATCH = 500;

export async function initialFrames(
  runs: WorkflowRunStore,
  owner: { readonly ownerId: string },
  jobId: string,
  lastEventId: number | undefined,
): Promise<InitialFrames | undefined> {
  const key = workflowRunKey(owner, jobId);
  // The sequence first, then the state: the snapshot reflects at least every event up to it.
  const last = await runs.lastSeq(key);
  const view = await runs.view(owner, jobId);
  if (view === undefined) return undefined;
  const run = view.record.data;
  const parked = run.status === 'Blocked' && run.parkedSeq !== null ? await openPark(runs, owner, await eventAt(runs, key, run.parkedSeq)) : undefined;
  if (lastEventId !== undefined && lastEventId <= last) return resumed(runs, view, lastEventId, last, parked);
  const frames: Array<{ frame: ProgressFrame; id: number }> = [{ frame: snapshotFrame(view, last), id: last }];
  if (isFinal(run.status)) return { frames, done: true, after: last };
  if (parked !== undefined) {
    frames.push({ frame: toLoggedFrame(parked.seq, parked.event), id: parked.seq });
    return { frames, done: true, after: last };
  }
  return { frames, done: false, after: last };
}

async function resumed(
  runs: WorkflowRunStore,
  view: RunView,
  lastEventId: number,
  last: number,
  parked: { seq: number; event: RunEvent } | undefined,
): Promise<InitialFrames> {
  const key = workflowRunKey(view.record, view.record.id);
  const frames: Array<{ frame: ProgressFrame; id: number }> = [];
  for (let after = lastEventId; after < last; ) {
    const batch = await runs.events(key, after, Math.min(BATCH, last - after));
    if (batch.length === 0) break;
    for (const { seq, event } of batch) {
      if (event.type !== 'PARKED' || seq === parked?.seq) frames.push({ frame: toLoggedFrame(seq, event), id: seq });
    }
    after = batch.at(-1)!.seq;
  }
  if (parked !== undefined && parked.seq <= lastEventId) frames.push({ frame: toLoggedFrame(parked.seq, parked.event), id: parked.seq });
  const done = isFinal(view.record.data.status) || parked !== undefined || frames.some((f) => closesStream(f.frame));
  return { frames, done, after: last };
}

/**
 * The park a watcher is told of, unless its approval was answered already: between a decision and the
 * resumed run's first commit the run still reads Blocked, and a watcher re-attaching then (right after
 * approving, as a client does) follows the run on rather than being told again that it waits.
 */
async function openPark(
  runs: WorkflowRunStore,
  owner: { readonly ownerId: string },
  parked: { seq: number; event: RunEvent } | undefined,
): Promise<{ seq: number; event: RunEvent } | undefined> {
  if (parked?.event.type !== 'PARKED') return parked;
  const approval = await runs.approval(owner, parked.event.approvalId);
  return approval === undefined || approval.state === 'Pending' ? parked : undefined;
}

async function eventAt(runs: WorkflowRunStore, key: ReturnType<typeof workflowRunKey>, seq: number): Promise<{ seq: number; event: RunEvent } | undefined> {
  const [found] = await runs.events(key, seq - 1, 1);
  return found?.seq === seq ? found : undefined;
}
