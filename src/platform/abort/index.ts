export { abortReason, throwIfAborted, untilAborted } from './until-aborted.js';
