import { describe, expect, it } from 'vitest';
import { argumentsTypeOf, cedarTypeOf } from './cedar-type-of.js';
import { MAX_ARGUMENT_DEPTH } from './policy-bounds.js';
import { MAX_JSON_DEPTH } from '../platform/http/index.js';

/** A schema of `levels` nested objects, each with one property `next`; the innermost holds a string `leaf`. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let i = 1; i < levels; i += 1) schema = { type: 'object', properties: { next: schema } };
  return schema;
}

function depthOf(type: unknown): number {
  if (typeof type !== 'object' || type === null) return 0;
  const t = type as { type: string; attributes?: Record<string, unknown>; element?: unknown };
  if (t.type === 'Set') return 1 + depthOf(t.element);
  if (t.type !== 'Record') return 1;
  return 1 + Math.max(0, ...Object.values(t.attributes ?? {}).map(depthOf));
}

describe('cedarTypeOf', () => {
  it('maps scalars: string → String, integer → Long, number → decimal, boolean → Boolean; null and enums without type map to nothing', () => {
    expect(cedarTypeOf({ type: 'string', enum: ['a'] }, 1)).toEqual({ type: 'String' });
    expect(cedarTypeOf({ type: 'integer' }, 1)).toEqual({ type: 'Long' });
    expect(cedarTypeOf({ type: 'number' }, 1)).toEqual({ type: 'Extension', name: 'decimal' });
    expect(cedarTypeOf({ type: 'boolean' }, 1)).toEqual({ type: 'Boolean' });
    expect(cedarTypeOf({ type: 'null' }, 1)).toBeNull();
    expect(cedarTypeOf({ enum: ['a', 'b'] }, 1)).toBeNull();
    expect(cedarTypeOf(true, 1)).toBeNull();
  });

  it('maps arrays to sets of their items, and leaves out arrays whose items do not map', () => {
    expect(cedarTypeOf({ type: 'array', items: { type: 'array', items: { type: 'integer' } } }, 1)).toEqual({ type: 'Set', element: { type: 'Set', element: { type: 'Long' } } });
    expect(cedarTypeOf({ type: 'array' }, 1)).toBeNull();
    expect(cedarTypeOf({ type: 'array', items: { anyOf: [{ type: 'string' }] } }, 1)).toBeNull();
  });

  it('leaves out alternatives even when a type is given beside them ($ref, allOf too)', () => {
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) expect(cedarTypeOf({ type: 'string', [keyword]: [{ minLength: 1 }] }, 1)).toBeNull();
    expect(cedarTypeOf({ $ref: '#/$defs/x' }, 1)).toBeNull();
  });

  it('stops at the §10 depth cap: nothing deeper than 64 levels maps, whatever the schema says', () => {
    expect(MAX_ARGUMENT_DEPTH).toBe(MAX_JSON_DEPTH);
    const type = argumentsTypeOf(nested(1_000));
    expect(depthOf(type)).toBe(MAX_ARGUMENT_DEPTH);
    expect(depthOf(argumentsTypeOf(nested(10)))).toBe(11);
  });

  it('treats parameters that are not an object with properties as no arguments at all', () => {
    expect(argumentsTypeOf({ type: 'object' })).toEqual({ type: 'Record', attributes: {} });
    expect(argumentsTypeOf({ type: 'string' })).toEqual({ type: 'Record', attributes: {} });
    expect(argumentsTypeOf({})).toEqual({ type: 'Record', attributes: {} });
  });
});
