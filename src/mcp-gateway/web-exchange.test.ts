import Fastify, { type FastifyInstance } from 'fastify';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebResponse, toWebRequest } from './web-exchange.js';

let app: FastifyInstance | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await app?.close();
});

/** A raw client that sends one request and reads nothing back. */
async function nonReader(port: number, path: string): Promise<Socket> {
  const client = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  client.pause();
  client.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  return client;
}

describe('sendWebResponse', () => {
  it('writes status, headers and body as one answer', async () => {
    app = Fastify();
    app.get('/', async (_request, reply) => sendWebResponse(reply, new Response('{"ok":true}', { status: 202, headers: { 'content-type': 'application/json', 'mcp-x': '1' } }), 1000));
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(202);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['mcp-x']).toBe('1');
    expect(res.body).toBe('{"ok":true}');
  });

  it('drops a client that stops reading once the drain deadline passes, and lets the body go', async () => {
    app = Fastify();
    let outcome: Promise<{ destroyed: boolean; buffered: number }> | undefined;
    // Far more than loopback's socket buffers hold, so the write stalls on the reader.
    const body = Buffer.alloc(64 * 1024 * 1024, 'x');
    app.get('/big', async (request, reply) => {
      const connection = request.raw.socket;
      outcome = new Promise((resolve) =>
        reply.raw.once('close', () => resolve({ destroyed: connection.destroyed, buffered: connection.writableLength })),
      );
      return sendWebResponse(reply, new Response(body, { headers: { 'content-type': 'application/json' } }), 300);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const started = Date.now();
    socket = await nonReader((app.server.address() as { port: number }).port, '/big');
    await expect.poll(() => outcome, { timeout: 5000 }).toBeDefined();
    expect(await outcome).toEqual({ destroyed: true, buffered: 0 });
    expect(Date.now() - started).toBeLessThan(5000);
    // A reader that comes back finds the connection cut short of the body.
    let received = 0;
    const client = socket;
    await new Promise<void>((resolve) => {
      client.on('data', (chunk: Buffer) => (received += chunk.length));
      client.once('close', () => resolve());
      client.resume();
    });
    expect(received).toBeLessThan(body.length);
  });

  it('refuses to relay a stream (no gateway exchange streams)', async () => {
    app = Fastify();
    app.get('/', async (_request, reply) => sendWebResponse(reply, new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } }), 1000));
    expect((await app.inject({ url: '/' })).statusCode).toBe(500);
  });
});

describe('toWebRequest', () => {
  it('carries the method, URL and headers, and aborts its signal when the client goes away unanswered', async () => {
    app = Fastify();
    let seen: Request | undefined;
    app.get('/wait', (request, reply) => {
      seen = toWebRequest(request, reply);
      // Never answered: the client leaves first.
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    socket = await nonReader((app.server.address() as { port: number }).port, '/wait?x=1');
    await expect.poll(() => seen, { timeout: 5000 }).toBeDefined();
    expect(seen?.method).toBe('GET');
    expect(new URL(seen?.url ?? '').pathname + new URL(seen?.url ?? '').search).toBe('/wait?x=1');
    expect(seen?.headers.get('host')).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(seen?.signal.aborted).toBe(false);
    socket.destroy();
    await expect.poll(() => seen?.signal.aborted, { timeout: 5000 }).toBe(true);
  });
});
