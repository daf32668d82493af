import { describe, expect, it } from 'vitest';
import { requestIdFrom } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
describe('requestIdFrom', () => {
  it('keeps an id of 1 to 128 characters from [A-Za-z0-9._:-]', () => {
    for (const id of ['a', 'req-1', 'A.b_c:D-9', 'x'.repeat(128)]) expect(requestIdFrom(id)).toBe(id);
  });

  it('replaces anything else with a random UUID', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'has space', 'semi;colon', 'new\nline', 'ünï', 'a,b', ['a', 'b']]) {
      expect(requestIdFrom(id as string | undefined)).toMatch(UUID);
    }
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});
