// A task's progress as A2A stream events, read from its run's journal (the frames every instance
// appends and any instance follows: DESIGN §11), so a stream or a blocking send on one instance
// follows a run executing on another. RUN_STARTED is WORKING; the frame that parks the run for a
// person is INPUT_REQUIRED and ends the updates (an interrupted task's stream closes); the run's end is
// the answer's artifact (when it completed) and the final status. Text and tool frames are not relayed:
// the task's answer is its artifact. What the frames carry was redacted when they were written.
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { isTerminalFrame, type BundleRunRecord, type BundleRunService } from '../bundles/index.js';
import { isoInstant } from '../platform/clock/index.js';

/** Reads the task as it stands now (after a frame that changed it). */
export type ReadTask = () => Promise<Task>;

/** The status and artifact events after journal position `after`, until the task is interrupted or ends. */
export async function* taskUpdates(
  runs: BundleRunService,
  run: BundleRunRecord,
  from: { readonly after: number; readonly state: TaskState },
  read: ReadTask,
  signals: { readonly signal: AbortSignal; readonly finish: AbortSignal; readonly now: () => number },
): AsyncGenerator<StreamResponse> {
  const ids = { taskId: run.jobId, contextId: run.contextId ?? '' };
  let state = from.state;
  for await (const { event } of runs.frames(run, from.after, signals.signal, signals.finish)) {
    if (event.type === 'RUN_STARTED' && state !== TaskState.TASK_STATE_WORKING) {
      state = TaskState.TASK_STATE_WORKING;
      yield { payload: { $case: 'statusUpdate', value: { ...ids, status: { state, message: undefined, timestamp: isoInstant(signals.now()) }, metadata: undefined } } };
    } else if (isTerminalFrame(event)) {
      const task = await read();
      for (const artifact of task.artifacts) yield { payload: { $case: 'artifactUpdate', value: { ...ids, artifact, append: false, lastChunk: true, metadata: undefined } } };
      yield { payload: { $case: 'statusUpdate', value: { ...ids, status: task.status, metadata: undefined } } };
      return;
    }
  }
}

/** Waits for the first frame after `after` that ends or interrupts the run (or for `signal`). */
export async function untilSettled(runs: BundleRunService, run: BundleRunRecord, after: number, signal: AbortSignal, finish: AbortSignal, options: { readonly throughInterrupts?: boolean } = {}): Promise<void> {
  for await (const { event } of runs.frames(run, after, signal, finish)) {
    if (!isTerminalFrame(event)) continue;
    if (options.throughInterrupts === true && event.type === 'RUN_FINISHED' && event.outcome !== undefined) continue;
    return;
  }
}
