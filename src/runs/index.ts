// The one run engine shared by bundles, workflows and evals (see run-engine.ts).
export { RunEngine, runTopic, type RunEngineOptions } from './run-engine.js';
export type { LiveRun, RunKind, RunObserver } from './run-kind.js';
export type { LaneOptions, LaneSlot } from './run-lane.js';
export { RunStopped, cancelledByCaller, hostStopping, leaseLost, stopCause } from './stop-reasons.js';
export { followJournal } from './follow-journal.js';
export { StorageLock, type Unlock } from './storage-lock.js';
export { LocalEventLog, type LoggedEvent } from './local-event-log.js';
