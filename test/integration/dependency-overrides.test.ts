// package.json pins two transitive dependencies to versions that support Node 20 (their latest
// majors need Node 22 and made `npm install` warn EBADENGINE; ADR 1007). This proves the dependents
// work with them the way they call them: light-my-request (every app.inject) serialises cookies with
// cookie@1, and @fastify/static (under /docs) builds Content-Disposition with content-disposition@2.
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const fromStatic = createRequire(createRequire(import.meta.url).resolve('@fastify/swagger-ui')).resolve('@fastify/static');
const staticRequire = createRequire(fromStatic);

describe('the Node 20 overrides', () => {
  it('light-my-request injects cookies through cookie@1', async () => {
    const app = Fastify();
    app.get('/echo', (request) => ({ cookie: request.headers.cookie ?? null }));
    const res = await app.inject({ method: 'GET', url: '/echo', cookies: { session: 'a b', theme: 'dark' } });
    expect(res.json()).toEqual({ cookie: 'session=a%20b; theme=dark' });
    await app.close();
  });

  it('@fastify/static builds a Content-Disposition header with content-disposition@2', () => {
    const { create } = staticRequire('content-disposition') as { create: (name: string) => string };
    expect(create('report.pdf')).toBe('attachment; filename=report.pdf');
    expect(create('résumé.pdf')).toBe('attachment; filename="r?sum?.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf');
  });
});
