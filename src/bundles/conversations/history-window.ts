// The history an agent is given: the last MaxHistoryMessages messages, never starting with a tool
// result whose assistant tool call was cut off (providers refuse an orphaned tool message).
import type { ChatMessage } from '../../models/index.js';

export function historyWindow(messages: readonly ChatMessage[], maxMessages: number): ChatMessage[] {
  const window = messages.slice(Math.max(0, messages.length - maxMessages));
  let start = 0;
  while (start < window.length && window[start]?.role === 'tool') start += 1;
  return window.slice(start);
}
