import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { textDescriptor } from './text-descriptor.js';

const ajv = new Ajv2020({ strict: true });
const schemaOf = (name: string) => ajv.compile(textDescriptor.operations.find((operation) => operation.name === name)!.parameters);

describe('textDescriptor', () => {
  it('declares the DESIGN §4 flags: Trivial, read-only, concurrency-safe, directly invocable, no network', () => {
    expect(textDescriptor).toMatchObject({
      name: 'text',
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    expect(textDescriptor.operations.map((operation) => operation.name)).toEqual(['count_tokens', 'extract', 'diff']);
  });

  it('requires text for count_tokens, at most 1 MiB, and nothing else', () => {
    const validate = schemaOf('count_tokens');
    expect(validate({ text: '' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ text: 'x', model: 'gpt-4o' })).toBe(false);
    expect(validate({ text: 'x'.repeat(1_048_577) })).toBe(false);
  });

  it('requires text and pattern for extract and allows only gimsuy flags', () => {
    const validate = schemaOf('extract');
    expect(validate({ text: 'abc', pattern: 'b' })).toBe(true);
    expect(validate({ text: 'abc', pattern: 'b', flags: 'gimsuy' })).toBe(true);
    expect(validate({ text: 'abc', pattern: 'b', flags: 'd' })).toBe(false);
    expect(validate({ text: 'abc', pattern: 'b', flags: 'v' })).toBe(false);
    expect(validate({ text: 'abc' })).toBe(false);
    expect(validate({ pattern: 'b' })).toBe(false);
    expect(validate({ text: 'abc', pattern: '' })).toBe(false);
    expect(validate({ text: 'abc', pattern: 'b'.repeat(1001) })).toBe(false);
    expect(validate({ text: 'abc', pattern: 'b', limit: 5 })).toBe(false);
  });

  it('requires before and after for diff and nothing else', () => {
    const validate = schemaOf('diff');
    expect(validate({ before: 'a', after: 'b' })).toBe(true);
    expect(validate({ before: 'a' })).toBe(false);
    expect(validate({ before: 'a', after: 'b', context: 10 })).toBe(false);
  });
});
