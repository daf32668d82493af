// Reads a dataset's `subject` (DESIGN.md §7): a host agent id, or an inline system prompt with the tools
// it requests. Absent: the default system prompt and no tools. An inline subject without `tools`
// requests none; the requested tools are narrowed by the starting caller's envelope at run time.
import type { EvalSubject } from './dataset.js';
import { optionalString, optionalTextList, refuseUnknownKeys, requireObject } from './fields.js';
import { InvalidField } from './invalid-field.js';

export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer the user’s request accurately and concisely.';

export function readSubject(raw: unknown): EvalSubject {
  if (raw === undefined || raw === null) return { kind: 'inline', systemPrompt: DEFAULT_SYSTEM_PROMPT, tools: [] };
  const fields = requireObject(raw, 'subject');
  refuseUnknownKeys(fields, ['agent', 'system', 'tools'], 'subject');
  const agent = optionalString(fields, 'agent', 'subject.');
  const system = optionalString(fields, 'system', 'subject.');
  const tools = optionalTextList(fields, 'tools', 'subject.');
  if (agent !== undefined) {
    if (system !== undefined || tools !== undefined) {
      throw new InvalidField('subject', 'names either a host agent (agent) or an inline prompt (system, tools), not both');
    }
    if (agent.trim() === '') throw new InvalidField('subject.agent', 'must be a non-empty string');
    return { kind: 'agent', agent: agent.trim() };
  }
  return { kind: 'inline', systemPrompt: system?.trim() || DEFAULT_SYSTEM_PROMPT, tools: tools ?? [] };
}
