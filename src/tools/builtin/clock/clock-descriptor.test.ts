import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { clockDescriptor } from './clock-descriptor.js';

const ajv = new Ajv2020({ strict: true });
const schemaOf = (name: string) => {
  const operation = clockDescriptor.operations.find((candidate) => candidate.name === name);
  return ajv.compile(operation!.parameters);
};

describe('clockDescriptor', () => {
  it('declares the DESIGN §4 flags: Trivial, read-only, concurrency-safe, directly invocable, no network', () => {
    expect(clockDescriptor).toMatchObject({
      name: 'clock',
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    expect(clockDescriptor.operations.map((operation) => operation.name)).toEqual(['now', 'convert']);
  });

  it('accepts now with or without a timeZone and refuses anything else', () => {
    const validate = schemaOf('now');
    expect(validate({})).toBe(true);
    expect(validate({ timeZone: 'Europe/Berlin' })).toBe(true);
    expect(validate({ zone: 'Europe/Berlin' })).toBe(false);
    expect(validate({ timeZone: 5 })).toBe(false);
    expect(validate({ timeZone: 'x'.repeat(65) })).toBe(false);
  });

  it('requires time and to for convert and refuses unknown parameters', () => {
    const validate = schemaOf('convert');
    expect(validate({ time: '2026-03-08T02:30', to: 'UTC' })).toBe(true);
    expect(validate({ time: '2026-03-08T02:30', to: 'UTC', from: 'America/New_York' })).toBe(true);
    expect(validate({ time: '2026-03-08T02:30' })).toBe(false);
    expect(validate({ to: 'UTC' })).toBe(false);
    expect(validate({ time: '2026-03-08T02:30', to: 'UTC', format: 'long' })).toBe(false);
  });
});
