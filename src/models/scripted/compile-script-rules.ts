// Validates a parsed rules document and compiles each `when` once. Every problem names the
// script and the rule (1-based) so a host can fix its file from the start-up error alone.
// Patterns match case-insensitively; unknown keys are refused so typos do not pass silently.
import type { ScriptRule, ScriptToolCall } from './script-rule.js';

const RULE_KEYS = new Set(['when', 'reply', 'toolCalls']);
const CALL_KEYS = new Set(['tool', 'operation', 'parameters']);

export function compileScriptRules(document: unknown, source: string): ScriptRule[] {
  if (!Array.isArray(document)) throw new Error(`Chat-model script ${source} must be a YAML list of rules.`);
  return document.map((raw, index) => compileRule(raw, `Chat-model script ${source}, rule ${index + 1}`));
}

function compileRule(raw: unknown, where: string): ScriptRule {
  if (!isPlainObject(raw)) throw new Error(`${where}: must be a mapping with "when" and "reply" or "toolCalls".`);
  rejectUnknownKeys(raw, RULE_KEYS, where);
  const { when, reply, toolCalls } = raw;
  if (typeof when !== 'string' || when === '') throw new Error(`${where}: "when" must be a non-empty regular expression string.`);
  if (reply !== undefined && typeof reply !== 'string') throw new Error(`${where}: "reply" must be a string.`);
  if (toolCalls !== undefined && !Array.isArray(toolCalls)) throw new Error(`${where}: "toolCalls" must be a list.`);
  const calls = (toolCalls ?? []).map((call, index) => compileCall(call, `${where}, tool call ${index + 1}`));
  if (reply === undefined && calls.length === 0) throw new Error(`${where}: needs a "reply", "toolCalls" or both.`);
  let pattern: RegExp;
  try {
    pattern = new RegExp(when, 'i');
  } catch (error) {
    throw new Error(`${where}: "when" is not a valid regular expression (${(error as Error).message}).`);
  }
  return { when: pattern, ...(reply !== undefined ? { reply } : {}), ...(calls.length > 0 ? { toolCalls: calls } : {}) };
}

function compileCall(raw: unknown, where: string): ScriptToolCall {
  if (!isPlainObject(raw)) throw new Error(`${where}: must be a mapping with "tool", "operation" and "parameters".`);
  rejectUnknownKeys(raw, CALL_KEYS, where);
  const { tool, operation, parameters } = raw;
  if (typeof tool !== 'string' || tool === '') throw new Error(`${where}: "tool" must be a non-empty string.`);
  if (typeof operation !== 'string' || operation === '') throw new Error(`${where}: "operation" must be a non-empty string.`);
  if (parameters !== undefined && !isPlainObject(parameters)) throw new Error(`${where}: "parameters" must be a mapping.`);
  return { tool, operation, parameters: parameters ?? {} };
}

function rejectUnknownKeys(raw: Record<string, unknown>, allowed: ReadonlySet<string>, where: string): void {
  const unknown = Object.keys(raw).filter((key) => !allowed.has(key));
  if (unknown.length > 0) throw new Error(`${where}: unknown key ${unknown.map((k) => `"${k}"`).join(', ')}.`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
