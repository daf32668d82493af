// Decides the Scripted model's whole answer for one step: a summary when called back after tool
// results (never new tool calls then), else the first rule matching the last user message (the
// configured ones, then the example agents' built-in ones), else the built-in script.
import type { ChatMessage } from '../chat-model.js';
import { builtinReply } from './builtin-script.js';
import { EXAMPLE_AGENT_RULES } from './example-agent-rules.js';
import type { ScriptRule, ScriptedTurn } from './script-rule.js';
import { summarizeToolResults } from './summarize-tool-results.js';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

export function planScriptedReply(messages: readonly ChatMessage[], rules: readonly ScriptRule[]): ScriptedTurn {
  if (messages.at(-1)?.role === 'tool') return { text: summarizeToolResults(trailingToolResults(messages)), toolCalls: [] };
  const message = messages.findLast((m) => m.role === 'user')?.content ?? '';
  // `search` ignores `lastIndex`, so a rule written with the g flag still matches every time.
  const matches = (candidate: ScriptRule): boolean => message.search(candidate.when) !== -1;
  const rule = rules.find(matches) ?? EXAMPLE_AGENT_RULES.find(matches);
  if (rule === undefined) return builtinReply(message);
  return { text: rule.reply ?? '', toolCalls: rule.toolCalls ?? [] };
}

function trailingToolResults(messages: readonly ChatMessage[]): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role !== 'tool') break;
    results.unshift(message);
  }
  return results;
}
