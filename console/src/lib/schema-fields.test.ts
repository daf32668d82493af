import { describe, expect, it } from 'vitest';
import { fieldsOf, isLongForm, parametersOf, simpleFieldsOf } from './schema-fields';

const schema = {
  type: 'object',
  required: ['key', 'value'],
  properties: {
    key: { type: 'string', maxLength: 256, description: 'Key' },
    value: { description: 'Any JSON value.' },
    ttlSeconds: { type: 'integer', minimum: 1, maximum: 2592000 },
    mode: { type: 'string', enum: ['a', 'b'] },
    verbose: { type: 'boolean' },
    schema: { anyOf: [{ type: 'object' }, { type: 'boolean' }] },
  },
};

describe('fieldsOf', () => {
  it('derives one field per property with its kind, requiredness and bounds', () => {
    expect(fieldsOf(schema).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['key', 'string', true],
      ['value', 'json', true],
      ['ttlSeconds', 'integer', false],
      ['mode', 'enum', false],
      ['verbose', 'boolean', false],
      ['schema', 'json', false],
    ]);
    expect(fieldsOf(schema)[2]).toMatchObject({ minimum: 1, maximum: 2592000 });
    expect(fieldsOf(schema)[3]!.options).toEqual(['a', 'b']);
    expect(fieldsOf(null)).toEqual([]);
  });
});

describe('isLongForm', () => {
  it('asks the schema first: a media type is a document, a format a one-line token, a maxLength over 4096 prose', () => {
    expect(isLongForm('notes', { type: 'string', contentMediaType: 'text/markdown' })).toBe(true);
    expect(isLongForm('body', { type: 'string', format: 'uri' })).toBe(false);
    expect(isLongForm('text', { type: 'string', maxLength: 1_048_576 })).toBe(true);
    expect(isLongForm('expression', { type: 'string', maxLength: 2000 })).toBe(false);
    expect(isLongForm('value', { type: 'string', maxLength: 4096 })).toBe(false);
    expect(isLongForm('content', { type: 'string', maxLength: 256 })).toBe(false);
  });

  it('falls back to the name only when the schema says nothing of length, format or media type', () => {
    expect(isLongForm('path', { type: 'string' })).toBe(false);
    expect(isLongForm('query', { type: 'string' })).toBe(false);
    expect(isLongForm('content', { type: 'string' })).toBe(true);
    expect(isLongForm('systemPrompt', { type: 'string' })).toBe(true);
    expect(isLongForm('file_content', { type: 'string' })).toBe(true);
    expect(isLongForm('contentType', { type: 'string' })).toBe(false);
  });

  it('marks only string fields multiline', () => {
    const fields = fieldsOf({ properties: { text: { type: 'string' }, flags: { type: 'string', maxLength: 6 }, body: { description: 'any JSON' } } });
    expect(fields.map((f) => [f.name, f.kind, f.multiline])).toEqual([
      ['text', 'string', true],
      ['flags', 'string', false],
      ['body', 'json', false],
    ]);
  });
});

describe('parametersOf', () => {
  const fields = fieldsOf(schema);
  it('reads typed values and leaves out empty optional fields', () => {
    expect(parametersOf(fields, { key: 'k', value: '{"a":[1]}', ttlSeconds: '60', mode: '', verbose: true, schema: '' })).toEqual({
      ok: true,
      parameters: { key: 'k', value: { a: [1] }, ttlSeconds: 60, verbose: true },
    });
  });

  it('names the field that cannot be read', () => {
    expect(parametersOf(fields, { key: 'k', value: '{' })).toEqual({ ok: false, field: 'value', message: 'must be JSON' });
    expect(parametersOf(fields, { key: 'k', value: '1', ttlSeconds: '1.5' })).toEqual({ ok: false, field: 'ttlSeconds', message: 'must be an integer' });
    expect(parametersOf(fields, { value: '1' })).toEqual({ ok: false, field: 'key', message: 'is required' });
  });

  it('leaves empty required fields out when the server is to judge them', () => {
    expect(parametersOf(fields, { value: '1' }, { checkRequired: false })).toEqual({ ok: true, parameters: { value: 1 } });
    expect(parametersOf(fields, { value: '{' }, { checkRequired: false })).toEqual({ ok: false, field: 'value', message: 'must be JSON' });
  });
});

describe('simpleFieldsOf', () => {
  it('gives inputs for an object schema of strings, numbers, integers, booleans and enums only', () => {
    const ticket = { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string' }, urgent: { type: 'boolean' }, size: { enum: ['S', 'M'] } } };
    expect(simpleFieldsOf(ticket)?.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['ticket', 'string', true],
      ['urgent', 'boolean', false],
      ['size', 'enum', false],
    ]);
  });

  it('answers null (a JSON textarea) for anything else', () => {
    expect(simpleFieldsOf(schema)).toBeNull();
    expect(simpleFieldsOf({ type: 'object' })).toBeNull();
    expect(simpleFieldsOf({ type: 'array', items: { type: 'string' } })).toBeNull();
    expect(simpleFieldsOf({ properties: { a: { type: 'string' } } })).toBeNull();
  });
});
