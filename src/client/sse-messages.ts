// Reads a text/event-stream response as its messages (id, event, data), with eventsource-parser.
// A problem answer becomes a PortcullisProblem; any other non-stream answer is an Error naming it.
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { PortcullisProblem } from './portcullis-problem.js';

export async function* sseMessages(response: Response): AsyncGenerator<EventSourceMessage> {
  const problem = await PortcullisProblem.from(response);
  if (problem !== undefined) throw problem;
  if (!response.ok || response.body === null) throw new Error(`expected an event stream, got HTTP ${response.status}`);
  const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = messages.getReader();
  try {
    for (let next = await reader.read(); next.done !== true; next = await reader.read()) yield next.value;
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
