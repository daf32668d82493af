import { afterAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../tool.js';
import { createJsonTool } from './create-json-tool.js';

const context = { ownerId: 'sub:tester', signal: new AbortController().signal };
const tool = createJsonTool();

afterAll(async () => {
  await tool.close?.();
});

const output = (result: ToolResult): unknown => {
  if (!result.ok) throw new Error(`expected success, got ${result.error}`);
  return JSON.parse(result.output);
};
const query = (data: unknown, expression: string) => tool.invoke('query', { data, expression }, context);
const validate = (data: unknown, schema: unknown) => tool.invoke('validate', { data, schema }, context);

const people = { people: [{ name: 'Ada', age: 36 }, { name: 'Bob', age: 25 }, { name: 'Cy', age: 41 }] };
const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
  additionalProperties: false,
};
/** JMESPath whose cost doubles per step: 2^steps leaves to visit. */
const doubling = (steps: number, tail: string): string => `${Array(steps).fill('{a: @, b: @}').join(' | ')} | ${tail}`;

describe('json.query', () => {
  it('evaluates a JMESPath filter, projection and pipe', async () => {
    expect(await query(people, 'people[?age > `30`].name | sort(@)')).toEqual({ ok: true, output: '{"result":["Ada","Cy"]}' });
  });

  it('answers null when nothing matches and queries scalars too', async () => {
    expect(await query(people, 'nobody.here')).toEqual({ ok: true, output: '{"result":null}' });
    expect(await query(5, '@')).toEqual({ ok: true, output: '{"result":5}' });
  });

  it('fails a malformed expression with the JMESPath message and no stack', async () => {
    expect(await query(people, 'people[')).toEqual({ ok: false, error: 'query failed: Syntax error: expected Star, got: EOF' });
    expect(await query(people, 'length(@, @)')).toEqual({
      ok: false,
      error: 'query failed: Invalid arity: length() takes 1 argument but received 2',
    });
  });

  it('speaks the JMESPath Community dialect: arithmetic, let and items(), and no ordering of strings', async () => {
    expect(await query({ a: 2, b: 3 }, 'a * b + `1`')).toEqual({ ok: true, output: '{"result":7}' });
    expect(await query({ a: 2 }, 'let $x = a in $x')).toEqual({ ok: true, output: '{"result":2}' });
    expect(await query({ a: 2 }, 'items(@)')).toEqual({ ok: true, output: '{"result":[["a",2]]}' });
    expect(await query({}, "'a' < 'b'")).toEqual({ ok: true, output: '{"result":null}' });
  });

  it('times out an expression whose work doubles per step and keeps working afterwards', async () => {
    const started = performance.now();
    const expression = doubling(30, Array(30).fill('*').join('.'));
    expect(await query({ x: 1 }, expression)).toEqual({ ok: false, error: 'query timed out' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await query(people, 'people[0].name')).toEqual({ ok: true, output: '{"result":"Ada"}' });
  });

  it('fails a result too large to serialize instead of building it', async () => {
    // A bound no busy machine reaches: the size check, not the timer, must refuse it.
    const patient = createJsonTool({ timeoutMs: 60_000 });
    const result = await patient.invoke('query', { data: { x: 'payload' }, expression: doubling(40, '@') }, context).finally(() => patient.close?.());
    expect(result).toEqual({
      ok: false,
      error: 'query failed: the result is larger than 1048576 characters of JSON',
    });
  });

  it('fails an expression or data over its bound before running', async () => {
    expect(await query(people, 'a'.repeat(2001))).toEqual({ ok: false, error: 'expression is longer than 2000 characters' });
    expect(await query({ s: 'x'.repeat(1_100_000) }, 's')).toEqual({
      ok: false,
      error: 'data is larger than 1048576 characters of JSON',
    });
  });
});

describe('json.validate', () => {
  it('reports valid data with no errors', async () => {
    expect(output(await validate({ name: 'Ada', age: 36 }, personSchema))).toEqual({ valid: true, errors: [] });
  });

  it('reports every error with a JSON Pointer path, naming additional properties', async () => {
    expect(output(await validate({ age: -1, extra: true }, personSchema))).toEqual({
      valid: false,
      errors: [
        { path: '', message: "must have required property 'name'" },
        { path: '', message: 'must NOT have additional properties: "extra"' },
        { path: '/age', message: 'must be >= 0' },
      ],
    });
  });

  it('checks formats and resolves local $refs', async () => {
    const schema = { $defs: { email: { type: 'string', format: 'email' } }, type: 'array', items: { $ref: '#/$defs/email' } };
    expect(output(await validate(['ada@example.com', 'nope'], schema))).toEqual({
      valid: false,
      errors: [{ path: '/1', message: 'must match format "email"' }],
    });
  });

  it('accepts a boolean schema', async () => {
    expect(output(await validate(1, false))).toEqual({ valid: false, errors: [{ path: '', message: 'boolean schema is false' }] });
  });

  it('returns at most 50 errors', async () => {
    const result = output(await validate(Array(100).fill(1), { type: 'array', items: { type: 'string' } })) as {
      errors: unknown[];
    };
    expect(result.errors).toHaveLength(50);
  });

  it('compiles each call afresh so the same $id can be validated twice', async () => {
    const schema = { $id: 'https://example.com/person', ...personSchema };
    expect(output(await validate({ name: 'Ada' }, schema))).toEqual({ valid: true, errors: [] });
    expect(output(await validate({ name: 'Bob' }, schema))).toEqual({ valid: true, errors: [] });
  });

  it('fails a schema that is not valid draft 2020-12', async () => {
    expect(await validate(1, { type: 'nope' })).toEqual({
      ok: false,
      error:
        'invalid schema: schema/type must be equal to one of the allowed values, schema/type must be array, schema/type must match a schema in anyOf',
    });
    expect(await validate(1, { $schema: 'http://json-schema.org/draft-07/schema#' })).toEqual({
      ok: false,
      error: 'invalid schema: no schema with key or ref "http://json-schema.org/draft-07/schema#"',
    });
  });

  it('never fetches a remote $ref and fails the schema instead', async () => {
    expect(await validate(1, { $ref: 'https://example.com/schema.json' })).toEqual({
      ok: false,
      error: "invalid schema: can't resolve reference https://example.com/schema.json from id #",
    });
  });

  it('times out a schema pattern that backtracks catastrophically and keeps working afterwards', async () => {
    const started = performance.now();
    expect(await validate(`${'a'.repeat(40)}!`, { type: 'string', pattern: '^(a+)+$' })).toEqual({
      ok: false,
      error: 'validation timed out',
    });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(output(await validate('aaa', { type: 'string', pattern: '^(a+)+$' }))).toEqual({ valid: true, errors: [] });
  });

  it('fails a schema over 256 KiB before compiling it', async () => {
    const schema = { description: 'x'.repeat(262_144) };
    expect(await validate(1, schema)).toEqual({ ok: false, error: 'schema must be JSON of at most 262144 characters' });
  });
});

describe('createJsonTool', () => {
  it('fails an undeclared operation naming the accepted ones', async () => {
    expect(await tool.invoke('patch', {}, context)).toEqual({
      ok: false,
      error: 'unknown operation "patch"; json accepts query, validate',
    });
  });

  it('fails rather than throws on parameters of the wrong type', async () => {
    expect(await tool.invoke('query', { data: 1, expression: 5 }, context)).toMatchObject({ ok: false });
    expect(await tool.invoke('query', { expression: '@' }, context)).toEqual({ ok: false, error: 'data must be a JSON value' });
    expect(await tool.invoke('validate', { data: 1, schema: 'string' }, context)).toMatchObject({ ok: false });
  });

  it('stops a running query when the call is aborted', async () => {
    const slow = createJsonTool({ timeoutMs: 30_000 });
    try {
      const controller = new AbortController();
      const pending = slow.invoke('query', { data: {}, expression: doubling(30, Array(30).fill('*').join('.')) }, {
        ownerId: 'sub:tester',
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 200);
      expect(await pending).toEqual({ ok: false, error: 'aborted' });
    } finally {
      await slow.close?.();
    }
  });

  it('refuses a time bound outside 1 to 60000 ms at construction', () => {
    expect(() => createJsonTool({ timeoutMs: 120_000 })).toThrow(RangeError);
  });
});
