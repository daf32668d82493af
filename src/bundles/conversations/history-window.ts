// The history an agent is given and a conversation keeps: the newest messages that fit both
// MaxHistoryMessages and MaxHistoryBytes (UTF-8 of contents and tool calls), never starting with a
// tool result whose assistant tool call was cut off (providers refuse an orphaned tool message).
// Older messages leave the window whole; a message is never cut.
import { promptBytes, type ChatMessage } from '../../models/index.js';

export function historyWindow(messages: readonly ChatMessage[], maxMessages: number, maxBytes: number): ChatMessage[] {
  let start = messages.length;
  let bytes = 0;
  while (start > 0 && messages.length - start < maxMessages) {
    bytes += promptBytes([messages[start - 1]!], maxBytes);
    if (bytes > maxBytes) break;
    start -= 1;
  }
  while (start < messages.length && messages[start]?.role === 'tool') start += 1;
  return messages.slice(start);
}
