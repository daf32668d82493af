import fastJson, { type Schema } from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { buildResponseSerializers } from './response-serializers.js';
import { serializationSchema } from './serialization-schema.js';

// Shaped like a run projection: constant-union status, nullable strings, dates and a nullable object.
const RunSchema = Type.Object({
  jobId: Type.String(),
  status: Type.Union([Type.Literal('Queued'), Type.Literal('Succeeded'), Type.Literal('Failed')]),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  result: Type.Union([
    Type.Object({ succeeded: Type.Boolean(), text: Type.String(), turns: Type.Integer(), error: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  usage: Type.Optional(Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer() })),
});

describe('serializationSchema', () => {
  it('turns a nullable union of a plain type into a type list', () => {
    const schema = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'd' });
    expect(serializationSchema(schema)).toEqual({ type: ['string', 'null'], format: 'date-time', description: 'd' });
  });

  it('turns a union of string constants into one string type', () => {
    expect(serializationSchema(Type.Union([Type.Literal('A'), Type.Literal('B')]))).toEqual({ type: 'string' });
  });

  it('leaves other unions, and the original schema, as they are', () => {
    const schema = Type.Object({ v: Type.Union([Type.String(), Type.Number()]), w: Type.Union([Type.Literal(1), Type.Null()]) });
    const before = JSON.stringify(schema);
    expect(serializationSchema(schema)).toEqual(JSON.parse(before));
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('serializes to the same bytes as the schema it came from', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const result = { succeeded: false, text: 'x "quoted"', turns: 1, error: 'e' };
    const values = [
      { jobId: 'j', status: 'Succeeded', error: null, createdAt: at, startedAt: at, completedAt: at, result, usage: { inputTokens: 1, outputTokens: 2 } },
      { jobId: 'j', status: 'Queued', error: null, createdAt: at, startedAt: null, completedAt: null, result: null },
      { jobId: 'j', status: 'Failed', error: 'boom', createdAt: at, startedAt: null, completedAt: at, result: null },
    ];
    const original = fastJson(RunSchema as unknown as Schema);
    const rewritten = buildResponseSerializers({}, {})({ schema: RunSchema });
    for (const value of values) {
      expect(rewritten(value)).toBe(original(value));
      expect(JSON.parse(rewritten(value))).toEqual(value);
    }
  });
});
