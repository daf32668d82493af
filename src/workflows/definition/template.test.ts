// Template parsing and rendering: placeholders, whole-value substitution, missing values.
import { describe, expect, it } from 'vitest';
import { parseTemplate } from './parse-template.js';
import { renderedSizeFromInput, renderText, renderValue } from './render-template.js';
import { jsonSize } from './json-size.js';

const MiB = 1024 * 1024;
const scope = { input: { city: 'Paris', n: 3 }, steps: { fetch: { output: { items: [{ title: 'A' }], ok: true } } } };

describe('templates', () => {
  it('parses input and step references with fields and array indexes', () => {
    const parsed = parseTemplate('In {{ input.city }}: {{steps.fetch.output.items.0.title}}');
    expect(parsed).toEqual({
      ok: true,
      template: {
        parts: ['In ', { root: 'input', path: ['city'] }, ': ', { root: 'steps', step: 'fetch', path: ['items', '0', 'title'] }],
        single: undefined,
      },
    });
  });

  it('refuses a placeholder that is neither input nor a step output', () => {
    expect(parseTemplate('{{ env.HOME }}')).toEqual({ ok: false, placeholder: '{{ env.HOME }}' });
    expect(parseTemplate('{{ steps.fetch }}').ok).toBe(false);
  });

  it('renders text, objects as JSON and missing values as empty', () => {
    expect(renderText('{{ input.city }} has {{ input.n }} / {{ steps.fetch.output.ok }} / [{{ input.nope }}]', scope, MiB)).toBe('Paris has 3 / true / []');
    expect(renderText('{{ steps.fetch.output.items }}', scope, MiB)).toBe('[{"title":"A"}]');
    expect(renderText('no placeholders {{ here', scope, MiB)).toBe('no placeholders {{ here');
  });

  it('keeps the JSON type of a value that is exactly one placeholder', () => {
    expect(renderValue({ n: '{{ input.n }}', list: ['{{ steps.fetch.output.items }}'], text: 'n={{ input.n }}', missing: '{{ input.x }}' }, scope, MiB)).toEqual({
      n: 3,
      list: [[{ title: 'A' }]],
      text: 'n=3',
      missing: null,
    });
  });

  it('renders a template of exactly the byte limit and refuses one byte more', () => {
    const text = '{{ input.city }}-é'; // 'Paris-é' is 8 UTF-8 bytes
    expect(renderText(text, scope, 8)).toBe('Paris-é');
    expect(renderText(text, scope, 7)).toBeUndefined();
    expect(renderText('plain é', scope, 7)).toBeUndefined();
  });

  it('refuses a placeholder repeated a hundred times over a large input, which fits only a hundredfold limit', () => {
    const big = { input: { x: 'x'.repeat(MiB) }, steps: {} };
    const template = '{{ input.x }}'.repeat(100);
    expect(renderText(template, big, MiB)).toBeUndefined();
    expect(renderText(template, big, 100 * MiB)).toHaveLength(100 * MiB);
  });

  it('bounds a whole rendered value, whole-value substitutions included', () => {
    const big = { input: { list: Array.from({ length: 1000 }, (_, i) => `item-${i}`) }, steps: {} };
    const size = jsonSize(big.input.list, Number.MAX_SAFE_INTEGER);
    expect(size).toBe(JSON.stringify(big.input.list).length);
    expect(renderValue({ data: '{{ input.list }}' }, big, size + 20)).toEqual({ data: big.input.list });
    expect(renderValue({ data: '{{ input.list }}' }, big, size)).toBeUndefined();
    expect(renderValue({ a: '{{ input.list }}', b: '{{ input.list }}' }, big, size + 40)).toBeUndefined();
  });

  it('measures a template from the input alone, counting step outputs as empty', () => {
    const input = { x: 'abc', o: { k: 1 } };
    expect(renderedSizeFromInput('{{ input.x }}{{ steps.s.output }}!{{ input.o }}', input, 1000)).toBe(3 + 1 + JSON.stringify(input.o).length);
    expect(renderedSizeFromInput('{{ input.x }}'.repeat(100), { x: 'x'.repeat(MiB) }, MiB)).toBeGreaterThan(MiB);
  });
});

describe('jsonSize', () => {
  it('equals the serialized length of plain JSON and stops counting past its limit', () => {
    const value = { a: [1, 2.5, null, true, false, 'q'], 'b c': { d: 'é' }, e: [] };
    expect(jsonSize(value, 1e9)).toBe(Buffer.byteLength(JSON.stringify(value)));
    expect(jsonSize({ s: 'x'.repeat(100) }, 10)).toBeGreaterThan(10);
  });

  it('measures a 100,000-deep value without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(jsonSize(deep, 1e9)).toBe(200_001);
  });
});
