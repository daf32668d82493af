// The per-request logger: its child is made only when something besides the request line logs, and
// every line of the request carries its id, byte for byte as a child logger writes it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createLogger, REQUEST_ID_LOG_LABEL, RequestLogLine } from '../log/index.js';
import { RequestLogger } from './request-logger.js';

function captured(level: 'info' | 'debug' = 'info') {
  const written: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void written.push(line) } });
  return { logger, written, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

let t: TestApp | undefined;
afterEach(async () => t?.close());

describe('RequestLogger', () => {
  it('writes a request line through its parent with the id first, the same bytes as through a child logger', () => {
    const { logger, written } = captured();
    const child = vi.spyOn(logger, 'child');
    const request = new RequestLogger(logger, { [REQUEST_ID_LOG_LABEL]: 'req-7' }, {});
    request.parentAtSameLevel!.info(new RequestLogLine('GET', '/api/bundles/:handle', 200, 1.25, 'sha256:abc', 'req-7'), 'request completed');
    expect(child).not.toHaveBeenCalled();
    child.mockRestore();
    logger.child({ [REQUEST_ID_LOG_LABEL]: 'req-7' }).info(new RequestLogLine('GET', '/api/bundles/:handle', 200, 1.25, 'sha256:abc'), 'request completed');
    const [direct, throughChild] = written.map((line) => line.replace(/,"time":\d+/, ''));
    expect(direct).toBe(throughChild);
    expect(JSON.parse(direct!)).toMatchObject({ reqId: 'req-7', route: '/api/bundles/:handle', msg: 'request completed' });
  });

  it('makes the child once, on the first other line, and binds the id to every line through it', () => {
    const { logger, lines } = captured('debug');
    const child = vi.spyOn(logger, 'child');
    const request = new RequestLogger(logger, { [REQUEST_ID_LOG_LABEL]: 'req-8' }, {});
    request.warn({ problem: 'rate-limited' }, 'request refused');
    request.debug('details %s', 'here');
    request.child({ part: 'stream' }).info('nested');
    expect(child).toHaveBeenCalledTimes(2); // the request's child, then the nested one
    expect(lines().map((line) => [line.reqId, line.level, line.msg])).toEqual([
      ['req-8', 40, 'request refused'],
      ['req-8', 20, 'details here'],
      ['req-8', 30, 'nested'],
    ]);
    expect(lines()[2]).toMatchObject({ part: 'stream' });
  });

  it('keeps a route’s own level: lines below it are dropped and the request line is not sent around it', () => {
    const { logger, lines } = captured('debug');
    const request = new RequestLogger(logger, { [REQUEST_ID_LOG_LABEL]: 'req-9' }, { level: 'warn' });
    expect(request.level).toBe('warn');
    expect(request.parentAtSameLevel).toBeUndefined();
    request.info('dropped');
    request.error('kept');
    expect(lines().map((line) => line.msg)).toEqual(['kept']);
    const plain = new RequestLogger(logger, { [REQUEST_ID_LOG_LABEL]: 'req-10' }, {});
    plain.level = 'error';
    expect(plain.parentAtSameLevel).toBeUndefined();
    expect(logger.level).toBe('debug');
  });
});

describe('the per-request logger in the service', () => {
  it('makes no child logger for a request that logs only its request line, and one for a refused request, whose lines share its id', async () => {
    const { logger, lines } = captured();
    t = await buildTestApp({ deps: { logger } });
    const child = vi.spyOn(logger, 'child');
    await t.app.inject({ method: 'GET', url: '/api/capabilities', headers: { 'x-request-id': 'plain-request' } });
    expect(child).not.toHaveBeenCalled();
    await t.app.inject({ method: 'POST', url: '/api/tools/clock/invoke', headers: { 'x-request-id': 'refused-request', 'content-type': 'application/json' }, payload: '{' });
    expect(child).toHaveBeenCalledTimes(1);
    const plain = lines().filter((line) => line.reqId === 'plain-request');
    const refused = lines().filter((line) => line.reqId === 'refused-request');
    expect(plain.map((line) => line.msg)).toEqual(['request completed']);
    expect(plain[0]).toMatchObject({ method: 'GET', route: '/api/capabilities', status: 200 });
    expect(refused.map((line) => line.msg)).toEqual(['request refused', 'request completed']);
    expect(refused[1]).toMatchObject({ status: 400 });
  });
});
