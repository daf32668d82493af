import { describe, expect, it } from 'vitest';
import { promiseOf } from './index.js';

describe('promiseOf', () => {
  it('hands on the very promise the call returns', () => {
    const promise = Promise.resolve(1);
    expect(promiseOf(() => promise)).toBe(promise);
  });

  it('turns a synchronous throw into a rejection with the same error', async () => {
    const error = new Error('thrown at once');
    await expect(
      promiseOf(() => {
        throw error;
      }),
    ).rejects.toBe(error);
  });

  it('wraps a thrown non-Error in an Error carrying its text', async () => {
    await expect(
      promiseOf(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the case under test
        throw 'plain text';
      }),
    ).rejects.toThrow(new Error('plain text'));
  });

  it('calls a function with the argument given, a synchronous throw still becoming the rejection', async () => {
    const double = (n: number): Promise<number> => Promise.resolve(n * 2);
    await expect(promiseOf(double, 21)).resolves.toBe(42);
    const refuse = (n: number): Promise<number> => {
      throw new Error(`refused ${n}`);
    };
    await expect(promiseOf(refuse, 7)).rejects.toThrow('refused 7');
  });
});
