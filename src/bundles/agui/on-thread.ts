// An AG-UI run stream speaks in the client's thread: RUN_STARTED and RUN_FINISHED carry the
// client's threadId (the conversation), while runId stays the service's job id (DESIGN §12).
import type { RunStream } from '../runs/run-stream.js';

export function onThread(stream: RunStream, threadId: string): RunStream {
  return {
    cancel: (cause) => stream.cancel(cause),
    release: () => stream.release(),
    frames: async function* (signal, finish) {
      for await (const logged of stream.frames(signal, finish)) {
        const { event } = logged;
        yield event.type === 'RUN_STARTED' || event.type === 'RUN_FINISHED' ? { ...logged, event: { ...event, threadId } } : logged;
      }
    },
  };
}
