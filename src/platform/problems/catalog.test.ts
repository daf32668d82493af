import { describe, expect, it } from 'vitest';
import { problemCatalog, problemCodes, toProblem, ProblemError, GENERIC_INTERNAL_DETAIL } from './index.js';

describe('problem catalog', () => {
  it('uses the titles SPEC.md names for its statuses', () => {
    expect(problemCatalog['validation-failed']).toMatchObject({ status: 400, title: 'Validation failed' });
    expect(problemCatalog.unauthorized).toMatchObject({ status: 401, title: 'Unauthorized' });
    expect(problemCatalog.forbidden).toMatchObject({ status: 403, title: 'Forbidden' });
    expect(problemCatalog['not-found']).toMatchObject({ status: 404, title: 'Not found' });
    expect(problemCatalog['run-not-streamable']).toMatchObject({ status: 409, title: 'Run not streamable' });
    expect(problemCatalog.internal).toMatchObject({ status: 500, title: 'Bundle operation failed' });
    expect(problemCatalog['method-not-allowed']).toMatchObject({ status: 405, title: 'Method not allowed' });
  });

  it('gives every code a distinct type URI', () => {
    const types = new Set(problemCodes.map((code) => toProblem(new ProblemError(code, 'x'), '/').body.type));
    expect(types.size).toBe(problemCodes.length);
  });
});

describe('toProblem', () => {
  it('renders a ProblemError with its detail, extensions and headers', () => {
    const rendered = toProblem(
      new ProblemError('rate-limited', 'Slow down.', { headers: { 'retry-after': '7' }, extensions: { limit: 10 } }),
      '/api/tools',
    );
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'retry-after': '7' });
    expect(rendered.body).toEqual({
      type: 'urn:portcullis:problem:rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: 'Slow down.',
      instance: '/api/tools',
      limit: 10,
    });
  });

  it('never lets an extension overwrite a standard member', () => {
    const rendered = toProblem(new ProblemError('not-found', 'gone', { extensions: { status: 200, title: 'OK' } }), '/x');
    expect(rendered.body.status).toBe(404);
    expect(rendered.body.title).toBe('Not found');
  });

  it('turns an unknown error into the generic 500 without its message', () => {
    const rendered = toProblem(new Error('ECONNREFUSED 10.0.0.7:5432 password=hunter2'), '/api/x');
    expect(rendered.status).toBe(500);
    expect(rendered.body.detail).toBe(GENERIC_INTERNAL_DETAIL);
    expect(JSON.stringify(rendered.body)).not.toContain('hunter2');
  });
});
