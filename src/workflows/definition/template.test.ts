// Template parsing and rendering: placeholders, whole-value substitution, missing values.
import { describe, expect, it } from 'vitest';
import { parseTemplate } from './parse-template.js';
import { renderText, renderValue } from './render-template.js';

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
    expect(renderText('{{ input.city }} has {{ input.n }} / {{ steps.fetch.output.ok }} / [{{ input.nope }}]', scope)).toBe('Paris has 3 / true / []');
    expect(renderText('{{ steps.fetch.output.items }}', scope)).toBe('[{"title":"A"}]');
    expect(renderText('no placeholders {{ here', scope)).toBe('no placeholders {{ here');
  });

  it('keeps the JSON type of a value that is exactly one placeholder', () => {
    expect(renderValue({ n: '{{ input.n }}', list: ['{{ steps.fetch.output.items }}'], text: 'n={{ input.n }}', missing: '{{ input.x }}' }, scope)).toEqual({
      n: 3,
      list: [[{ title: 'A' }]],
      text: 'n=3',
      missing: null,
    });
  });
});
