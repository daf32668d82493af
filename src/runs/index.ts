// The one run engine shared by bundles, workflows and evals (run-engine.ts), and what a family writes
// against it: its run kind (run-kind.ts), the live run its execution is handed (live-run.ts), typed
// messages between instances, the journal follower and the cross-instance lock.
export { RunEngine, QUEUED, runTopic, type RunEngineOptions } from './run-engine.js';
export {
  INTERRUPTED,
  RunWaits,
  type Interrupted,
  type ParkedChange,
  type RunDecision,
  type RunEnding,
  type RunKind,
  type RunObserver,
  type RunWaiting,
  type DeadlineOutcome,
  type SettlingRun,
  type StopRequest,
} from './run-kind.js';
export type { LiveRun } from './live-run.js';
export type { RunMessage } from './run-message.js';
export type { LaneOptions, LaneSlot } from './run-lane.js';
export { RunStopped, stopCause, type CancelCause, type StopCause } from './stop-reasons.js';
export { followJournal } from './follow-journal.js';
export { StorageLock, type Unlock } from './storage-lock.js';
