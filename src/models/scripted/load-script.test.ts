import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from './create-scripted-model.js';
import { loadScript } from './load-script.js';

const dir = mkdtempSync(join(tmpdir(), 'portcullis-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadScript', () => {
  it('loads and compiles a valid rules file, matching case-insensitively', () => {
    const path = file(
      'valid.yaml',
      [
        '- when: "^hello"',
        '  reply: Hi there!',
        '- when: "add (\\\\d+)"',
        '  toolCalls:',
        '    - tool: calculator',
        '      operation: evaluate',
        '      parameters: { expression: "1+1" }',
        '    - tool: clock',
        '      operation: now',
      ].join('\n'),
    );
    const rules = loadScript(path);
    expect(rules).toHaveLength(2);
    expect(rules[0]!.when.test('HELLO you')).toBe(true);
    expect(rules[1]).toMatchObject({
      toolCalls: [
        { tool: 'calculator', operation: 'evaluate', parameters: { expression: '1+1' } },
        { tool: 'clock', operation: 'now', parameters: {} },
      ],
    });
  });

  it('is what the Scripted model uses when given a scriptPath', async () => {
    const path = file('model.yaml', '- when: ping\n  reply: pong\n');
    const parts = [];
    for await (const part of createScriptedModel({ scriptPath: path }).stream({ messages: [{ role: 'user', content: 'ping' }], tools: [], signal: new AbortController().signal })) {
      parts.push(part);
    }
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'pong' });
  });

  it('names the file when the YAML does not parse', () => {
    const path = file('broken.yaml', '- when: "a\n  reply: [unclosed\n');
    expect(() => loadScript(path)).toThrow(`Chat-model script ${path} is not valid YAML`);
  });

  it('names the file and the rule when a pattern is not a valid regular expression', () => {
    const path = file('regex.yaml', '- when: ok\n  reply: fine\n- when: "(unclosed"\n  reply: never\n');
    expect(() => loadScript(path)).toThrow(`Chat-model script ${path}, rule 2: "when" is not a valid regular expression`);
  });

  it.each([
    ['not a list', 'when: x\nreply: y\n', 'must be a YAML list of rules'],
    ['an unknown key', '- when: x\n  replay: y\n', 'rule 1: unknown key "replay"'],
    ['a rule with nothing to say', '- when: x\n', 'rule 1: needs a "reply", "toolCalls" or both'],
    ['a tool call without an operation', '- when: x\n  toolCalls:\n    - tool: clock\n', 'rule 1, tool call 1: "operation" must be a non-empty string'],
    ['parameters that are not a mapping', '- when: x\n  toolCalls:\n    - { tool: clock, operation: now, parameters: [1] }\n', '"parameters" must be a mapping'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => loadScript(file('bad.yaml', text))).toThrow(message);
  });

  it('names the file when it cannot be read', () => {
    expect(() => loadScript(join(dir, 'missing.yaml'))).toThrow(`Chat-model script ${join(dir, 'missing.yaml')} could not be read (ENOENT).`);
  });
});
