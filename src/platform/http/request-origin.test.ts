import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOrigin } from './request-origin.js';

const app = Fastify();
app.get('/origin', async (request) => requestOrigin(request));
beforeAll(() => app.ready());
afterAll(() => app.close());

describe('requestOrigin', () => {
  it('is the scheme and the Host the client used', async () => {
    const res = await app.inject({ url: '/origin', headers: { host: 'gateway.example.com:8443' } });
    expect(res.body).toBe('http://gateway.example.com:8443');
    expect((await app.inject({ url: '/origin', headers: { host: '[::1]:8080' } })).body).toBe('http://[::1]:8080');
  });

  it('falls back to the local address for a Host that is not a plain host and port', async () => {
    for (const host of ['evil.example/path', 'a"b', 'x y', '']) {
      const res = await app.inject({ url: '/origin', headers: { host } });
      expect(res.body).toMatch(/^http:\/\/[^"/ ]+:\d+$/);
      expect(res.body).not.toContain('evil');
    }
  });
});
