export { openSseStream, type OpenSseStreamOptions, type SseOptions, type SseStream } from './open-sse-stream.js';
export { SseAbortError, isSseAbortError, type SseAbortCode } from './sse-abort-error.js';
export { sseDataFrame, sseCommentFrame, type SseEventId } from './sse-frame.js';
export { OpenStreams } from './open-streams.js';
