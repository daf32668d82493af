import { describe, expect, it } from 'vitest';
import { buildResponseSerializers, immutableResponse, remembersImmutable } from './response-serializers.js';

describe('remembersImmutable', () => {
  it('writes an immutableResponse once and answers its text again, and writes every other payload each time', () => {
    let writes = 0;
    const serialize = remembersImmutable((data) => {
      writes += 1;
      return JSON.stringify(data);
    });
    const finished = immutableResponse({ status: 'Succeeded', result: { text: 'done' } });
    expect(serialize(finished)).toBe('{"status":"Succeeded","result":{"text":"done"}}');
    expect(serialize(finished)).toBe('{"status":"Succeeded","result":{"text":"done"}}');
    expect(writes).toBe(1);
    const live = { status: 'Running' };
    serialize(live);
    serialize(live);
    serialize(Object.freeze({ status: 'Running' }));
    expect(writes).toBe(4);
  });

  it('deep-freezes what it marks, so the remembered text cannot go stale', () => {
    const marked = immutableResponse({ result: { text: 'done' }, list: [{ a: 1 }] });
    expect(Object.isFrozen(marked)).toBe(true);
    expect(Object.isFrozen(marked.result)).toBe(true);
    expect(Object.isFrozen(marked.list[0])).toBe(true);
  });

  it('route serializers remember an immutable payload’s text, one per schema: the same object under two schemas answers each schema’s bytes', () => {
    const factory = buildResponseSerializers();
    const full = factory({ schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } });
    const narrow = factory({ schema: { type: 'object', properties: { a: { type: 'string' } } } });
    let reads = 0;
    const payload = immutableResponse({
      get a(): string {
        reads += 1;
        return 'x';
      },
      b: 'y',
    });
    expect(full(payload)).toBe('{"a":"x","b":"y"}');
    expect(narrow(payload)).toBe('{"a":"x"}');
    const readsAfterFirstWrites = reads;
    expect(full(payload)).toBe('{"a":"x","b":"y"}');
    expect(narrow(payload)).toBe('{"a":"x"}');
    // Answered from the remembered texts: the payload was not read again.
    expect(reads).toBe(readsAfterFirstWrites);
  });
});
