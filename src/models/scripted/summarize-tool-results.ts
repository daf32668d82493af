// The Scripted model's answer once tools have run: one line per result of the last tool round,
// each shortened so a large output does not flood the demo conversation.
import type { ChatMessage } from '../chat-model.js';

const MAX_RESULT_CHARS = 500;

export function summarizeToolResults(results: readonly Extract<ChatMessage, { role: 'tool' }>[]): string {
  const lines = results.map(({ toolName, content }) => {
    const shown = content.length > MAX_RESULT_CHARS ? `${content.slice(0, MAX_RESULT_CHARS)}…` : content;
    return `- ${toolName}: ${shown}`;
  });
  return ['Tool results:', ...lines].join('\n');
}
