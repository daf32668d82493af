import { describe, expect, it } from 'vitest';
import { readToolArguments } from './read-tool-arguments.js';
import { INVALID_ARGUMENTS_CONTENT } from './tool-result-content.js';

const ops = ['get', 'set'];

describe('readToolArguments', () => {
  it('reads a declared operation and its parameters object', () => {
    expect(readToolArguments('{"operation":"set","parameters":{"key":"a","value":1}}', ops)).toEqual({
      ok: true,
      operation: 'set',
      parameters: { key: 'a', value: 1 },
    });
  });

  it('treats absent or null parameters, and an empty arguments text, as an empty object', () => {
    expect(readToolArguments('{"operation":"get"}', ops)).toEqual({ ok: true, operation: 'get', parameters: {} });
    expect(readToolArguments('{"operation":"get","parameters":null}', ops)).toEqual({ ok: true, operation: 'get', parameters: {} });
    expect(readToolArguments('  ', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.operation(ops) });
  });

  it('refuses what the loop promised the model it would not accept', () => {
    expect(readToolArguments('{oops', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.notJson });
    expect(readToolArguments('"get"', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.notObject });
    expect(readToolArguments('null', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.notObject });
    expect(readToolArguments('{"operation":7}', ops)).toEqual({ ok: false, content: 'The tool call failed: "operation" must be one of: get, set.' });
    expect(readToolArguments('{"operation":"GET"}', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.operation(ops) });
    expect(readToolArguments('{"operation":"get","parameters":[]}', ops)).toEqual({ ok: false, content: INVALID_ARGUMENTS_CONTENT.parametersNotObject });
  });

  it('drops prototype-poisoning keys instead of honouring them', () => {
    const read = readToolArguments('{"operation":"set","parameters":{"__proto__":{"polluted":true},"key":"a"}}', ops);
    expect(read).toEqual({ ok: true, operation: 'set', parameters: { key: 'a' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
