import { describe, expect, it } from 'vitest';
import { readToolArguments } from './read-tool-arguments.js';
import { INVALID_ARGUMENTS_CONTENT } from './tool-result-content.js';

describe('readToolArguments', () => {
  it('reads an operation and its parameters object', () => {
    expect(readToolArguments('{"operation":"set","parameters":{"key":"a","value":1}}')).toEqual({ operation: 'set', parameters: { key: 'a', value: 1 }, problem: null });
  });

  it('treats absent or null parameters as an empty object, and an empty arguments text as naming no operation', () => {
    expect(readToolArguments('{"operation":"get"}')).toEqual({ operation: 'get', parameters: {}, problem: null });
    expect(readToolArguments('{"operation":"get","parameters":null}')).toEqual({ operation: 'get', parameters: {}, problem: null });
    expect(readToolArguments('  ')).toEqual({ operation: '', parameters: {}, problem: null });
    expect(readToolArguments('{"operation":7}')).toEqual({ operation: '', parameters: {}, problem: null });
  });

  it('names no operation, so the call is refused and never run, for what the loop promised the model it would not accept, and says why', () => {
    expect(readToolArguments('{oops')).toEqual({ operation: '', parameters: {}, problem: INVALID_ARGUMENTS_CONTENT.notJson });
    expect(readToolArguments('"get"')).toEqual({ operation: '', parameters: {}, problem: INVALID_ARGUMENTS_CONTENT.notObject });
    expect(readToolArguments('null')).toEqual({ operation: '', parameters: {}, problem: INVALID_ARGUMENTS_CONTENT.notObject });
    expect(readToolArguments('{"operation":"get","parameters":[]}')).toEqual({ operation: '', parameters: {}, problem: INVALID_ARGUMENTS_CONTENT.parametersNotObject });
  });

  it('drops prototype-poisoning keys instead of honouring them', () => {
    const read = readToolArguments('{"operation":"set","parameters":{"__proto__":{"polluted":true},"key":"a"}}');
    expect(read).toEqual({ operation: 'set', parameters: { key: 'a' }, problem: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
