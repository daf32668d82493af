import { describe, expect, it } from 'vitest';
import { buildResponseSerializers } from './response-serializers.js';

describe('buildResponseSerializers', () => {
  it('writes only the schema’s fields, nullable members as null or their value', () => {
    const serialize = buildResponseSerializers()({
      schema: {
        type: 'object',
        properties: { status: { type: 'string' }, error: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        required: ['status', 'error'],
      },
    });
    expect(serialize({ status: 'Succeeded', error: null, extra: 'not in the schema' })).toBe('{"status":"Succeeded","error":null}');
    expect(serialize({ status: 'Failed', error: 'it broke' })).toBe('{"status":"Failed","error":"it broke"}');
  });

  it('resolves a shared schema by $id, without passing the route’s own schema twice', () => {
    const shared = { Item: { $id: 'Item', type: 'object', properties: { a: { type: 'string' } } } };
    const factory = buildResponseSerializers(shared);
    expect(factory({ schema: { type: 'object', properties: { item: { $ref: 'Item#' } } } })({ item: { a: 'x', b: 'y' } })).toBe('{"item":{"a":"x"}}');
    expect(factory({ schema: shared.Item })({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
  });
});
