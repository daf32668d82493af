// The HTTP edge under hostile clients (issue 9, points 1, 2, 4 and 5), against a real listening
// server on loopback: connection caps per address and in total (with /healthz still answering to
// everyone else), protocol errors Node answers itself turned into problem documents with their status
// unchanged, unknown methods on known paths as 405 with Allow, bytes that are not text refused, and a
// flood of forged tokens logged as one line per reason per interval.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { buildTestApp, merge, ANONYMOUS_DEV, type TestApp } from '../helpers/test-app.js';

const apps: TestApp[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const t of apps.splice(0)) await t.close();
});

async function serve(settings: Record<string, unknown> = ANONYMOUS_DEV, logger?: ReturnType<typeof createLogger>): Promise<{ t: TestApp; port: number }> {
  const t = await buildTestApp({ settings, ...(logger ? { deps: { logger } } : {}) });
  apps.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { t, port: address.port };
}

/** Sends raw bytes on a fresh connection and resolves with everything the server wrote before closing. */
function raw(port: number, request: string | Buffer, localAddress?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
    sockets.push(socket);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(request);
  });
}

/** Opens a connection and resolves once it is established (or closed by the server at once). */
function hold(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
  });
}

function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('protocol errors', () => {
  it('answers a malformed request as a 400 problem document', async () => {
    const { port } = await serve();
    const res = parseResponse(await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ type: 'urn:portcullis:problem:validation-failed', title: 'Validation failed', status: 400 });
  });

  it('answers oversized headers as a 431 problem document', async () => {
    const { port } = await serve();
    const res = parseResponse(await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ type: 'urn:portcullis:problem:header-fields-too-large', status: 431 });
  });

  it('answers QUERY and an unknown method on a known path with 405 and Allow', async () => {
    const { port } = await serve();
    for (const method of ['QUERY', 'BREW']) {
      const res = parseResponse(await raw(port, `${method} /api/tools HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(res.status, `${method} ${res.body}`).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD');
      expect(JSON.parse(res.body)).toMatchObject({ title: 'Method not allowed', status: 405 });
    }
    const unknown = parseResponse(await raw(port, 'BREW /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(unknown.status).toBe(404);
  });
});

describe('bodies that are not text', () => {
  it('refuses invalid UTF-8 and lone surrogates with 400 instead of storing or echoing them', async () => {
    const { t } = await serve(merge(ANONYMOUS_DEV, { AppConfig: { AI: { DirectToolInvocation: { Enabled: true } } } }));
    const invoke = (payload: Buffer | string) =>
      t.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: { 'content-type': 'application/json' }, payload });
    const invalid = await invoke(Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","steps":[]}')]));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().detail).toBe('The request body is not valid UTF-8.');
    const lone = await invoke('{"name":"\\ud800","steps":[]}');
    expect(lone.statusCode).toBe(400);
    expect(lone.body).not.toContain('\\ud800');
    const proto = await invoke('{"__proto__":{"x":1}}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json().detail).toContain('"__proto__"');
  });
});

describe('connection caps', () => {
  it('closes connections beyond MaxConnectionsPerAddress at once, and /healthz still answers', async () => {
    const { port } = await serve(merge(ANONYMOUS_DEV, { AppConfig: { Http: { MaxConnectionsPerAddress: 8, MaxConnections: 16 } } }));
    const held = await Promise.all(Array.from({ length: 8 }, () => hold(port)));
    const extra = await Promise.all(Array.from({ length: 20 }, () => hold(port)));
    await Promise.all(extra.map((c) => c.closed));
    // The held connections are still usable, and the host answers on them.
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      held[0]!.socket.setEncoding('latin1');
      held[0]!.socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('"ok"')) resolve(text);
      });
      held[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(parseResponse(reply).status).toBe(200);
  });

  it('keeps /healthz answering for another address while one address holds its whole share', async () => {
    const { port } = await serve(merge(ANONYMOUS_DEV, { AppConfig: { Http: { MaxConnectionsPerAddress: 8 } } }));
    await Promise.all(Array.from({ length: 40 }, () => hold(port)));
    // 127.0.0.2 is another loopback address on Linux: a different client as far as the cap is concerned.
    const res = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '127.0.0.2');
    expect(parseResponse(res).status).toBe(200);
  });
});

describe('token refusals in the log', () => {
  let idp: DevIdp;
  beforeAll(async () => {
    idp = await startTestIdp();
  });
  afterAll(async () => idp.close());

  it('logs a flood of forged tokens as one line per reason, carrying the count', async () => {
    const log = captureLog();
    const logger = createLogger({ level: 'warn', destination: log.destination });
    const { t } = await serve(idpSettings(idp), logger);
    const honest = await idp.mintToken({ sub: 'flood' });
    const [header, payload] = honest.split('.');
    for (let i = 0; i < 2_000; i += 1) {
      const forged = `${header}.${payload}.${Buffer.from(`forged-${i}`).toString('base64url')}`;
      const res = await t.app.inject({ method: 'GET', url: '/api/tools', headers: bearer(forged) });
      expect(res.statusCode).toBe(401);
    }
    const refusals = () =>
      log.lines.map((line) => JSON.parse(line) as { msg: string; reason?: string; count?: number }).filter((line) => line.msg === 'bearer authentication failed');
    expect(refusals()).toHaveLength(1);
    await t.close();
    apps.splice(apps.indexOf(t), 1);
    // Closing reports what the interval counted: every refusal accounted for, in two lines.
    expect(refusals()).toHaveLength(2);
    expect(refusals().reduce((sum, line) => sum + (line.count ?? 0), 0)).toBe(2_000);
    expect(new Set(refusals().map((line) => line.reason)).size).toBe(1);
  });
});
