// Reads a text/event-stream response body frame by frame (fetch, not EventSource, because the
// request carries an Authorization header). Framing is eventsource-parser's; each `data:` is JSON.
import { EventSourceParserStream } from 'eventsource-parser/stream';

export async function readJsonFrames<T>(response: Response, onFrame: (frame: T, id: string | undefined) => void): Promise<void> {
  if (response.body === null) return;
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      let frame: T;
      try {
        frame = JSON.parse(value.data) as T;
      } catch {
        continue; // a frame that is not JSON is not one of ours
      }
      onFrame(frame, value.id);
    }
  } finally {
    reader.releaseLock();
  }
}
