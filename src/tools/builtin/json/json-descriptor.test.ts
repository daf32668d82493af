import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { jsonDescriptor } from './json-descriptor.js';

const ajv = new Ajv2020({ strict: true });
const schemaOf = (name: string) => ajv.compile(jsonDescriptor.operations.find((operation) => operation.name === name)!.parameters);

describe('jsonDescriptor', () => {
  it('declares the DESIGN §4 flags: Trivial, read-only, concurrency-safe, directly invocable, no network', () => {
    expect(jsonDescriptor).toMatchObject({
      name: 'json',
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    expect(jsonDescriptor.operations.map((operation) => operation.name)).toEqual(['query', 'validate']);
  });

  it('requires data and a bounded expression for query and nothing else', () => {
    const validate = schemaOf('query');
    expect(validate({ data: { a: 1 }, expression: 'a' })).toBe(true);
    expect(validate({ data: null, expression: '@' })).toBe(true);
    expect(validate({ expression: 'a' })).toBe(false);
    expect(validate({ data: {} })).toBe(false);
    expect(validate({ data: {}, expression: '' })).toBe(false);
    expect(validate({ data: {}, expression: 'a'.repeat(2001) })).toBe(false);
    expect(validate({ data: {}, expression: 'a', functions: {} })).toBe(false);
  });

  it('requires data and an object or boolean schema for validate and nothing else', () => {
    const validate = schemaOf('validate');
    expect(validate({ data: 1, schema: { type: 'number' } })).toBe(true);
    expect(validate({ data: 1, schema: true })).toBe(true);
    expect(validate({ data: 1, schema: 'number' })).toBe(false);
    expect(validate({ data: 1 })).toBe(false);
    expect(validate({ schema: {} })).toBe(false);
    expect(validate({ data: 1, schema: {}, loadSchema: 'https://example.com' })).toBe(false);
  });
});
