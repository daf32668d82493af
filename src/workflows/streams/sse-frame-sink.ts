// A FrameSink over the platform's SSE writer and the raw response: frames go out with their `id:`
// line, and writing waits for 'drain' whenever the socket buffer is full.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { SseStream } from '../../platform/sse/index.js';
import type { FrameSink } from './frame-sink.js';

export function sseFrameSink(sse: SseStream, res: ServerResponse): FrameSink {
  return {
    signal: sse.signal,
    send: (frame, id) => sse.send(frame, { id }),
    writable: async () => {
      if (!res.writableNeedDrain || sse.signal.aborted) return;
      await once(res, 'drain', { signal: sse.signal }).catch(() => undefined);
    },
    close: () => sse.close(),
  };
}
