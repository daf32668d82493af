import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { lines, destination: destination as unknown as NodeJS.WritableStream & { write(msg: string): void } };
}

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';

describe('createLogger', () => {
  it('cuts long strings in fields, messages and errors to maxStringLength and marks the cut', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination, maxStringLength: 100 });
    const huge = 'x'.repeat(5_000_000);
    logger.info({ error: huge, nested: { list: [huge] } }, huge);
    logger.error({ err: new Error(huge) }, 'failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThan(2_000);
    const first = JSON.parse(lines[0]!) as { error: string; nested: { list: string[] }; msg: string };
    expect(first.error).toBe(`${'x'.repeat(100)}… [4999900 more characters]`);
    expect(first.nested.list[0]).toBe(first.error);
    expect(first.msg).toBe(first.error);
    const second = JSON.parse(lines[1]!) as { err: { message: string } };
    expect(second.err.message).toBe(first.error);
  });

  it('redacts before it cuts, so a secret straddling the cut is never half shown', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination, maxStringLength: 30 });
    logger.info({ note: `${'y'.repeat(10)} ${githubToken}` }, 'x');
    const { note } = JSON.parse(lines[0]!) as { note: string };
    expect(note).toBe('yyyyyyyyyy [REDACTED]');
    expect(note).not.toContain('ghp_');
  });

  it('redacts secrets glued to a word or written with JSON escapes, in fields and messages', () => {
    const { lines, destination } = capture();
    const escaped = `token \\u0067hp_${githubToken.slice(4)}`;
    createLogger({ destination }).warn({ detail: `key${githubToken}`, body: escaped }, escaped);
    const line = JSON.parse(lines[0]!) as { detail: string; body: string; msg: string };
    expect(line.detail).toBe('key[REDACTED]');
    expect(line.body).toBe('token [REDACTED]');
    expect(line.msg).toBe('token [REDACTED]');
  });

  it('leaves the logged object itself untouched', () => {
    const { destination } = capture();
    const fields = { text: 'z'.repeat(50) };
    createLogger({ destination, maxStringLength: 10 }).info(fields, 'm');
    expect(fields.text).toHaveLength(50);
  });
});

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
