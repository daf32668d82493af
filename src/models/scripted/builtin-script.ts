// The built-in script, used when no rules file is configured and when no rule matches (after the
// example agents' rules, example-agent-rules.ts): `call <tool> <operation> [<json object>]` asks for
// that tool call; anything else is echoed.
import type { ScriptedTurn } from './script-rule.js';

const CALL = /^\s*call\s+(\S+)\s+(\S+)(?:\s+([\s\S]*?))?\s*$/i;

export function builtinReply(message: string): ScriptedTurn {
  const match = CALL.exec(message);
  if (match === null) return { text: `You said: ${message}`, toolCalls: [] };
  const [, tool = '', operation = '', json] = match;
  const parameters = parseParameters(json);
  if (parameters === undefined) {
    return { text: 'The parameters of "call" must be a JSON object: call <tool> <operation> {"key": "value"}', toolCalls: [] };
  }
  return { text: '', toolCalls: [{ tool, operation, parameters }] };
}

function parseParameters(json: string | undefined): Record<string, unknown> | undefined {
  if (json === undefined || json === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
