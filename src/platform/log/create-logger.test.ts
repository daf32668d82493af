import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.js';

describe('createLogger as the app logger', () => {
  it('writes access-log lines with the request host and address, never its headers', async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = Fastify({ loggerInstance: createLogger({ destination }) });
    app.get('/ping', () => 'pong');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/ping`, { headers: { authorization: 'Bearer secret-token' } });
    await app.close();
    const incoming = lines.find((line) => line.msg === 'incoming request');
    expect(incoming?.req).toEqual({ method: 'GET', url: '/ping', host: `127.0.0.1:${port}`, remoteAddress: '127.0.0.1', remotePort: expect.any(Number) });
    expect(lines.find((line) => line.msg === 'request completed')?.res).toEqual({ statusCode: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });
});
