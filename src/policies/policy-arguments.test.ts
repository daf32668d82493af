import { describe, expect, it } from 'vitest';
import type { CedarRecordType } from './cedar-schema-types.js';
import { argumentsTypeOf } from './cedar-type-of.js';
import { MAX_ARGUMENT_NODES, MAX_ARGUMENT_TEXT } from './policy-bounds.js';
import { cedarArguments, type ArgumentMapping } from './policy-arguments.js';

const refund = argumentsTypeOf({
  type: 'object',
  required: ['order', 'amount'],
  properties: {
    order: { type: 'string' },
    amount: { type: 'number' },
    count: { type: 'integer' },
    express: { type: 'boolean' },
    skus: { type: 'array', items: { type: 'string' } },
    lines: { type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } },
    note: { type: 'object' },
  },
});

const reasonOf = (mapping: ArgumentMapping): string => (mapping.mappable ? 'mapped' : mapping.reason);

/**
 * The arguments behind proxies that record every property read, at any depth: how much of them a
 * mapping looked at. A bound that stops the walk shows as a count, whatever the machine's load.
 */
function watched<T extends object>(args: T): { readonly args: T; reads(): number; read(key: string): boolean } {
  const keys: string[] = [];
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      if (typeof key === 'string') keys.push(key);
      return wrap(Reflect.get(target, key, receiver));
    },
  };
  const wrap = (value: unknown): unknown => (typeof value === 'object' && value !== null ? new Proxy(value, handler) : value);
  return { args: wrap(args) as T, reads: () => keys.length, read: (key) => keys.includes(key) };
}

describe('cedarArguments', () => {
  it('maps strings, whole numbers, decimals, booleans, sets and records; drops what the type leaves out', () => {
    const mapping = cedarArguments(refund, {
      order: 'A-1',
      amount: 120.5,
      count: 3,
      express: true,
      skus: ['x', 'y'],
      lines: [{ sku: 'x', qty: 2, extra: 'dropped' }],
      note: { free: 'form' },
      unknown: 1,
    });
    expect(mapping).toMatchObject({
      mappable: true,
      value: {
        order: 'A-1',
        amount: { __extn: { fn: 'decimal', arg: '120.5' } },
        count: 3,
        express: true,
        skus: ['x', 'y'],
        lines: [{ sku: 'x', qty: 2 }],
      },
    });
    expect(mapping.mappable && Object.keys(mapping.value)).toEqual(['amount', 'count', 'express', 'lines', 'order', 'skus']);
  });

  it('leaves optional properties out when absent, and treats no arguments as {}', () => {
    const mapping = cedarArguments(refund, { order: 'A-1', amount: 1 });
    expect(mapping.mappable && mapping.value).toEqual({ order: 'A-1', amount: { __extn: { fn: 'decimal', arg: '1.0' } } });
    expect(cedarArguments({ type: 'Record', attributes: {} }, undefined)).toMatchObject({ mappable: true, value: {} });
  });

  it('maps only the names policies read when told which (others are never walked)', () => {
    const mapping = cedarArguments(refund, { order: 'A-1', amount: Number.NaN, lines: 'not even a list' }, { readable: new Set(['order']) });
    expect(mapping).toMatchObject({ mappable: true, value: { order: 'A-1' } });
  });

  it('reports the longest text per attribute name, for the like bound', () => {
    const mapping = cedarArguments(refund, { order: 'A-12345', amount: 1, skus: ['a'.repeat(40)], lines: [{ sku: 'bb' }] });
    expect(mapping.mappable && Object.fromEntries(mapping.longestText)).toEqual({ order: 7, sku: 2 });
    expect(mapping.mappable && mapping.longestTextAnywhere).toBe(40);
  });

  it.each([
    ['a missing required property', { amount: 1 }, 'The argument `order` is required by the operation\'s schema.'],
    ['a string where a number goes', { order: 'A', amount: '12' }, 'The argument `amount` is not a number.'],
    ['a fraction where a whole number goes', { order: 'A', amount: 1, count: 1.5 }, 'The argument `count` is not a whole number.'],
    ['null for a string', { order: null, amount: 1 }, 'The argument `order` is not a string.'],
    ['an object for a list', { order: 'A', amount: 1, skus: { 0: 'x' } }, 'The argument `skus` is not a list.'],
    ['a wrong member deep inside', { order: 'A', amount: 1, lines: [{ sku: 'x' }, { sku: 7 }] }, 'The argument `lines[1].sku` is not a string.'],
    ['a missing required member property', { order: 'A', amount: 1, lines: [{ qty: 1 }] }, "The argument `lines[0].sku` is required by the operation's schema."],
    ['a bigint', { order: 'A', amount: 1, count: 5n }, 'The argument `count` is not a whole number.'],
  ])('refuses %s, naming the argument and never its value', (_, args, reason) => {
    expect(cedarArguments(refund, args)).toEqual({ mappable: false, reason });
  });

  it('refuses arguments that are not an object', () => {
    for (const args of [null, [], 'x', 7]) expect(cedarArguments(refund, args)).toEqual({ mappable: false, reason: 'The arguments are not a JSON object.' });
  });

  it('refuses NaN and ±Infinity (as they can arrive from JavaScript), for decimals and whole numbers alike', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(reasonOf(cedarArguments(refund, { order: 'A', amount: bad }))).toBe('The argument `amount` is not a finite number.');
      expect(reasonOf(cedarArguments(refund, { order: 'A', amount: 1, count: bad }))).toBe('The argument `count` is not a finite number.');
    }
  });

  it('refuses 2^63 (and any whole number beyond ±(2^53 − 1)) as a Long; maps -0 as 0', () => {
    expect(reasonOf(cedarArguments(refund, { order: 'A', amount: 1, count: 2 ** 63 }))).toMatch(/^The argument `count` is outside the whole numbers policies compare exactly/);
    expect(reasonOf(cedarArguments(refund, { order: 'A', amount: 1, count: 2 ** 53 }))).toMatch(/outside the whole numbers/);
    const zero = cedarArguments(refund, { order: 'A', amount: -0, count: -0 });
    expect(zero.mappable && zero.value).toEqual({ order: 'A', amount: { __extn: { fn: 'decimal', arg: '0.0' } }, count: 0 });
    expect(zero.mappable && Object.is(zero.value['count'], -0)).toBe(false);
  });

  it('refuses 2^63 as a decimal (out of range) and a decimal with more than 4 places (no rounding)', () => {
    expect(reasonOf(cedarArguments(refund, { order: 'A', amount: 2 ** 63 }))).toBe("The argument `amount` is outside Cedar's decimal range (±922337203685477.5807).");
    expect(reasonOf(cedarArguments(refund, { order: 'A', amount: 100.00001 }))).toBe('The argument `amount` has more than 4 decimal places, which policies cannot compare exactly.');
  });

  it('refuses text containing NUL', () => {
    expect(reasonOf(cedarArguments(refund, { order: 'A\u0000B', amount: 1 }))).toBe('The argument `order` contains a NUL character.');
  });

  it('refuses a 1 MB string policies could read (the text bound is 256 Ki characters), and maps one at the bound', () => {
    const mapping = cedarArguments(refund, { order: 'x'.repeat(1_000_000), amount: 1 });
    expect(reasonOf(mapping)).toBe(`The arguments hold more than ${MAX_ARGUMENT_TEXT} characters of text that policies read.`);
    const within = cedarArguments(refund, { order: 'x'.repeat(MAX_ARGUMENT_TEXT), amount: 1 });
    expect(within.mappable).toBe(true);
  });

  it('drops a 1 MB string no policy reads without reading it', () => {
    const watch = watched({ order: 'x'.repeat(1_000_000), amount: 1 });
    const mapping = cedarArguments(refund, watch.args, { readable: new Set(['amount']) });
    expect(mapping.mappable && mapping.value).toEqual({ amount: { __extn: { fn: 'decimal', arg: '1.0' } } });
    expect(watch.read('order')).toBe(false);
  });

  it('refuses a 10^6-element array at once, without walking it', () => {
    const watch = watched({ order: 'A', amount: 1, skus: new Array<string>(1_000_000).fill('s') });
    const mapping = cedarArguments(refund, watch.args);
    expect(reasonOf(mapping)).toBe(`The arguments hold more than ${MAX_ARGUMENT_NODES} values that policies read.`);
    expect(watch.reads()).toBeLessThan(20);
  });

  it('refuses many small values spread over records once the count passes the bound, walking no further', () => {
    // 9,000 records of two values: within the array bound, so the walk counts its way to the refusal.
    const watch = watched({ order: 'A', amount: 1, lines: Array.from({ length: 9_000 }, () => ({ sku: 's', qty: 1 })) });
    const mapping = cedarArguments(refund, watch.args);
    expect(reasonOf(mapping)).toBe(`The arguments hold more than ${MAX_ARGUMENT_NODES} values that policies read.`);
    // A walk to the end reads every record's index and both its values: 27,000 reads and more.
    expect(watch.reads()).toBeLessThan(2 * MAX_ARGUMENT_NODES);
  });

  it('maps arguments 1,000 levels deep only as deep as the schema (capped at 64 levels), reading no deeper', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
    let args: Record<string, unknown> = { leaf: 'bottom' };
    for (let i = 1; i < 1_000; i += 1) {
      schema = { type: 'object', properties: { next: schema } };
      args = { next: args };
    }
    const watch = watched(args);
    const mapping = cedarArguments(argumentsTypeOf(schema), watch.args);
    expect(mapping.mappable).toBe(true);
    expect(watch.reads()).toBeLessThan(4 * 64);
    let depth = 0;
    let value: unknown = mapping.mappable ? mapping.value : null;
    while (typeof value === 'object' && value !== null) {
      depth += 1;
      value = (value as Record<string, unknown>)['next'];
    }
    expect(depth).toBe(64);
  });

  it('refuses a value nested deeper than the cap when handed a type deeper than the schema mapping makes', () => {
    let type: CedarRecordType = { type: 'Record', attributes: {} };
    let args: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) {
      type = { type: 'Record', attributes: { next: { ...type, required: true } } };
      args = { next: args };
    }
    expect(reasonOf(cedarArguments(type, args))).toMatch(/^The argument `next(\.next)+` is nested deeper than 64 levels\.$/);
  });

  it('keeps a property named __proto__ an ordinary attribute', () => {
    const type = argumentsTypeOf({ type: 'object', properties: { __proto__x: { type: 'string' }, constructor: { type: 'string' } } });
    const mapping = cedarArguments(type, JSON.parse('{"constructor":"c","__proto__x":"p"}'));
    expect(mapping.mappable && mapping.value).toEqual({ constructor: 'c' });
  });
});
