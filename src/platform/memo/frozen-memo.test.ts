import { describe, expect, it } from 'vitest';
import { madeOnce } from './frozen-memo.js';

describe('madeOnce', () => {
  it('makes a value once for a frozen key and anew for a key that is not frozen', () => {
    const made = new WeakMap<object, { readonly n: number }>();
    let calls = 0;
    const make = (): { readonly n: number } => ({ n: (calls += 1) });
    const frozen = Object.freeze({});
    const first = madeOnce(made, frozen, make);
    expect(madeOnce(made, frozen, make)).toBe(first);
    const open = {};
    expect(madeOnce(made, open, make)).not.toBe(madeOnce(made, open, make));
    expect(calls).toBe(3);
  });
});
