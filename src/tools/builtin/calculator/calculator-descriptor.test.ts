import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { calculatorDescriptor } from './calculator-descriptor.js';

describe('calculatorDescriptor', () => {
  it('declares the DESIGN §4 flags: Trivial, read-only, concurrency-safe, directly invocable, no network', () => {
    expect(calculatorDescriptor).toMatchObject({
      name: 'calculator',
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    expect(calculatorDescriptor.operations.map((operation) => operation.name)).toEqual(['evaluate']);
  });

  it('requires a bounded expression and refuses unknown parameters', () => {
    const validate = new Ajv2020({ strict: true }).compile(calculatorDescriptor.operations[0]!.parameters);
    expect(validate({ expression: '1 + 1' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ expression: '' })).toBe(false);
    expect(validate({ expression: '1'.repeat(1001) })).toBe(false);
    expect(validate({ expression: '1 + 1', scope: { x: 1 } })).toBe(false);
    expect(validate({ expression: 2 })).toBe(false);
  });
});
