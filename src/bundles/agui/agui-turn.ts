// Reads the one turn an AG-UI RunAgentInput asks for (DESIGN §12): the thread is the conversation and
// the last user message is the turn. Earlier messages are the client's copy of a history the service
// already keeps, so they are never replayed. Framework-free; refusals are 400 problems.
import { ProblemError } from '../../platform/problems/index.js';
import type { RunAgentInput } from '../schemas.js';

export interface AguiTurn {
  readonly threadId: string;
  readonly message: string;
}

export function aguiTurn(input: RunAgentInput): AguiTurn {
  const last = input.messages.findLast((message) => message.role === 'user');
  if (last === undefined) throw new ProblemError('validation-failed', 'The input carries no user message: the last user message is the turn.');
  const message = textOf(last.content);
  if (message.trim() === '') throw new ProblemError('validation-failed', 'The last user message has no text.');
  return { threadId: input.threadId, message };
}

/** A string content as it is; content parts by their text parts, joined by new lines. */
function textOf(content: RunAgentInput['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type: string; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n');
}
