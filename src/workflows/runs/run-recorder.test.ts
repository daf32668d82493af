// The recorder's group commit: steps that settle faster than a commit takes still go out together
// (a chain run inside one turn of the event loop is committed once at its end, whatever number of
// promise layers a step has), and steps that end on every turn still get their checkpoints committed.
import { describe, expect, it } from 'vitest';
import type { LiveRun } from '../../runs/index.js';
import type { JournalChange } from '../../platform/storage/index.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { ApprovalDesk } from './approval-desk.js';
import { RunRecorder } from './run-recorder.js';
import type { StepState, WorkflowRunData } from './workflow-run.js';

const ticks = async (count: number): Promise<void> => {
  for (let i = 0; i < count; i += 1) await Promise.resolve();
};

/** A live run whose commit takes `commitTicks` microtask turns; it keeps every commit's items. */
function liveRun(commitTicks: number): { live: LiveRun<WorkflowRunData>; commits: Array<ReadonlyArray<{ key: string; data: unknown }>> } {
  const commits: Array<ReadonlyArray<{ key: string; data: unknown }>> = [];
  let seq = 0;
  const live = {
    slot: null,
    commit: async (change: JournalChange<unknown, WorkflowRunData>) => {
      await ticks(commitTicks);
      commits.push(change.items ?? []);
      const seqs = (change.events ?? []).map(() => (seq += 1));
      return { committed: true, seqs, record: undefined };
    },
  } as unknown as LiveRun<WorkflowRunData>;
  return { live, commits };
}

function recorder(live: LiveRun<WorkflowRunData>): RunRecorder {
  return new RunRecorder({
    live,
    desk: { pending: () => [] } as unknown as ApprovalDesk,
    data: { status: 'Running', usage: { inputTokens: 0, outputTokens: 0 } } as unknown as WorkflowRunData,
    lastSeq: 0,
    steps: new Map<string, StepState>(),
    blocked: () => Promise.resolve([]),
    onError: (error) => {
      throw error;
    },
  });
}

const step = (index: number): GraphStep => ({ index, id: `s${index}`, name: `s${index}`, path: `s${index}`, type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} }, successors: [], predecessorCount: 0 });

/** Every step's state after the commits and then the final commit's tail, as the storage would hold them. */
function stored(commits: ReadonlyArray<ReadonlyArray<{ key: string; data: unknown }>>, tail: ReadonlyArray<{ key: string; data: unknown }>): Map<string, string> {
  const states = new Map<string, string>();
  for (const item of [...commits.flat(), ...tail]) states.set(item.key, (item.data as StepState).status);
  return states;
}

/** A chain as the engine reports it: each step runs for `stepTicks` turns, then succeeds and its successor starts in the same turn. */
async function chain(observer: RunRecorder, steps: number, wait: () => Promise<void>): Promise<void> {
  observer.stepChanged(step(0), { status: 'Running', at: 0 });
  for (let i = 0; i < steps; i += 1) {
    await wait();
    observer.stepChanged(step(i), { status: 'Succeeded', at: i + 1, output: i });
    if (i + 1 < steps) observer.stepChanged(step(i + 1), { status: 'Running', at: i + 1 });
  }
}

describe('RunRecorder', () => {
  it.each([1, 2, 5, 12])('commits a chain whose steps settle in %i microtask turns (a commit takes 6) at most twice, the rest at its end', async (stepTicks) => {
    const { live, commits } = liveRun(6);
    const observer = recorder(live);
    await chain(observer, 200, () => ticks(stepTicks));
    const tail = await observer.finish();
    expect(commits.length).toBeLessThanOrEqual(2);
    const states = stored(commits, tail.items);
    expect([states.size, new Set(states.values())]).toEqual([200, new Set(['Succeeded'])]);
  });

  it('commits checkpoints while a chain goes whose steps end one a turn of the event loop', async () => {
    const { live, commits } = liveRun(6);
    const observer = recorder(live);
    await chain(observer, 40, () => new Promise((resolve) => setImmediate(resolve)));
    expect(commits.length).toBeGreaterThanOrEqual(10); // not all held back for the end
    const tail = await observer.finish();
    const states = stored(commits, tail.items);
    expect([states.size, new Set(states.values())]).toEqual([40, new Set(['Succeeded'])]);
  });
});
