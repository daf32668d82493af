// A storage that cannot reach its database answers 503 "Service unavailable" with a fixed detail:
// the driver's text (host names, codes) stays in the log.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../storage/storage-unavailable.js';
import { installProblemHandlers } from './problem-handlers.js';

describe('a storage failure at the HTTP edge', () => {
  it('is a 503 problem document with Retry-After, without the cause', async () => {
    const app = Fastify({ logger: false });
    installProblemHandlers(app);
    app.get('/x', async () => {
      throw new StorageUnavailableError({ cause: new Error('connect ECONNREFUSED 10.0.0.7:5432') });
    });
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ status: 503, title: 'Service unavailable', detail: 'The service cannot reach its storage right now; try again shortly.' });
    expect(res.body).not.toContain('ECONNREFUSED');
    await app.close();
  });
});
