import { createServer, get, IncomingMessage, ServerResponse, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSseStream, type OpenSseStreamOptions, type SseStream } from './open-sse-stream.js';
import { SseAbortError } from './sse-abort-error.js';

interface Client {
  readonly request: ClientRequest;
  readonly response: IncomingMessage;
  readonly body: () => string;
  /** Resolves once the received body satisfies the predicate. */
  readonly waitFor: (predicate: (body: string) => boolean) => Promise<void>;
  readonly ended: Promise<void>;
}

interface Harness {
  readonly stream: SseStream;
  readonly res: ServerResponse;
  readonly client: Client;
}

const servers: Server[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function connect(options: OpenSseStreamOptions = {}): Promise<Harness> {
  let opened!: (value: { stream: SseStream; res: ServerResponse }) => void;
  const serverSide = new Promise<{ stream: SseStream; res: ServerResponse }>((resolve) => (opened = resolve));
  const server = createServer((_req, res) => opened({ stream: openSseStream(res, options), res }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const client = await new Promise<Client>((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path: '/stream' }, (response) => {
      let body = '';
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        for (const check of waiters) check();
      });
      const ended = new Promise<void>((done) => response.on('end', done));
      const waitFor = (predicate: (text: string) => boolean) =>
        new Promise<void>((done) => {
          const check = () => {
            if (!predicate(body)) return;
            waiters.delete(check);
            done();
          };
          waiters.add(check);
          check();
        });
      resolve({ request, response, body: () => body, waitFor, ended });
    });
    request.on('error', reject);
  });
  return { ...(await serverSide), client };
}

function abortCode(stream: SseStream): unknown {
  return (stream.signal.reason as SseAbortError).code;
}

describe('openSseStream', () => {
  it('answers 200 with the SSE headers and any extra headers', async () => {
    const { client, stream } = await connect({ headers: { 'x-run-id': 'r1' } });
    expect(client.response.statusCode).toBe(200);
    expect(client.response.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      'x-run-id': 'r1',
    });
    stream.close();
  });

  it('writes data frames, id lines and comments as exact LF-only bytes', async () => {
    const { client, stream } = await connect();
    expect(stream.send({ type: 'RUN_STARTED', threadId: 'h1', runId: 'r1' })).toBe(true);
    expect(stream.send({ type: 'TEXT_MESSAGE_CONTENT', delta: 'a\nb\r\nc' }, { id: 2 })).toBe(true);
    expect(stream.comment('note')).toBe(true);
    stream.close();
    await client.ended;
    expect(client.body()).toBe(
      'data: {"type":"RUN_STARTED","threadId":"h1","runId":"r1"}\n\n' +
        'id: 2\ndata: {"type":"TEXT_MESSAGE_CONTENT","delta":"a\\nb\\r\\nc"}\n\n' +
        ': note\n\n',
    );
    const dataLines = client.body().split('\n').filter((line) => line.startsWith('data: '));
    expect(dataLines).toHaveLength(2);
    expect(JSON.parse(dataLines[1]!.slice('data: '.length))).toEqual({ type: 'TEXT_MESSAGE_CONTENT', delta: 'a\nb\r\nc' });
  });

  it('sends a heartbeat comment every heartbeatMs and stops it on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { client, stream } = await connect({ heartbeatMs: 5_000 });
    vi.advanceTimersByTime(4_999);
    vi.advanceTimersByTime(1);
    await client.waitFor((body) => body === ': heartbeat\n\n');
    vi.advanceTimersByTime(5_000);
    await client.waitFor((body) => body === ': heartbeat\n\n: heartbeat\n\n');
    stream.close();
    expect(vi.getTimerCount()).toBe(0);
    await client.ended;
    expect(client.body()).toBe(': heartbeat\n\n: heartbeat\n\n');
  });

  it('aborts the signal when the client disconnects and then refuses to send', async () => {
    const onError = vi.fn();
    const { client, stream } = await connect({ onError });
    client.request.destroy();
    await stream.closed;
    expect(stream.signal.aborted).toBe(true);
    expect(stream.signal.reason).toBeInstanceOf(SseAbortError);
    expect(abortCode(stream)).toBe('client-disconnected');
    expect(stream.send({ late: true })).toBe(false);
    expect(onError).not.toHaveBeenCalled();
  });

  it('drops a client that stops reading once more than maxBufferedBytes wait unsent', async () => {
    const { client, stream, res } = await connect({ maxBufferedBytes: 256 * 1024 });
    client.response.pause();
    const frame = { type: 'TEXT_MESSAGE_CONTENT', delta: 'x'.repeat(64 * 1024) };
    const cap = 2_000; // 128 MiB: far beyond any loopback socket buffer
    let sent = 0;
    while (sent < cap && stream.send(frame)) {
      sent += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sent).toBeLessThan(cap);
    expect(stream.signal.aborted).toBe(true);
    expect(abortCode(stream)).toBe('slow-consumer');
    await stream.closed;
    expect(res.destroyed).toBe(true);
    expect(stream.send(frame)).toBe(false);
  });

  it('ends the response exactly once however often close is called', async () => {
    const { client, stream, res } = await connect();
    const end = vi.spyOn(res, 'end');
    stream.send({ type: 'RUN_FINISHED' });
    stream.close();
    stream.close();
    await stream.closed;
    await client.ended;
    stream.close();
    expect(end).toHaveBeenCalledTimes(1);
    expect(abortCode(stream)).toBe('closed');
    expect(stream.send({ late: true })).toBe(false);
    expect(stream.comment('late')).toBe(false);
    expect(client.body()).toBe('data: {"type":"RUN_FINISHED"}\n\n');
  });

  it('reports a failed write through onError and aborts with it as the cause', async () => {
    const failure = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const onError = vi.fn();
    const { stream, res } = await connect({ onError });
    vi.spyOn(res, 'write').mockImplementation(((_chunk: unknown, callback?: (err?: Error | null) => void) => {
      process.nextTick(() => callback?.(failure));
      return false;
    }) as ServerResponse['write']);
    stream.send({ n: 1 });
    await stream.closed;
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(failure);
    expect(abortCode(stream)).toBe('write-error');
    expect((stream.signal.reason as SseAbortError).cause).toBe(failure);
    expect(stream.send({ n: 2 })).toBe(false);
  });

  it('refuses to let extra headers replace the SSE headers', () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    expect(() => openSseStream(res, { headers: { 'Cache-Control': 'max-age=60' } })).toThrow(TypeError);
    expect(() => openSseStream(res, { maxBufferedBytes: 0 })).toThrow(RangeError);
  });
});
