export { deadlineSignal, timeoutReason, type DeadlineSignal } from './deadline-signal.js';
export { abortReason, throwIfAborted, untilAborted } from './until-aborted.js';
