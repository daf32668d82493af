// createLogger's redaction and its framework-line fast path (the per-request line skips the redaction copy).
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from './create-logger.js';
import { FrameworkLogLine } from './framework-log-line.js';
import { RequestLogLine } from './request-log-line.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';

/** The line createLogger writes and the line a plain pino logger's own field loop writes, both without their time. */
function bothWays(log: (logger: ReturnType<typeof createLogger>) => void): { ours: string; pinos: string } {
  const written: string[] = [];
  const ours = createLogger({ level: 'info', destination: { write: (line: string) => void written.push(line) } });
  const reference = pino({ level: 'info' }, { write: (line: string) => void written.push(line) });
  log(ours);
  log(reference);
  const [a, b] = written.map((line) => line.replace(/,"time":\d+/, ''));
  return { ours: a!, pinos: b! };
}

class PlainLine extends FrameworkLogLine {
  readonly absent = undefined;
  constructor(
    readonly name: string,
    readonly count: number,
    readonly nested: { readonly list: readonly string[] } | null,
  ) {
    super();
  }
}

describe('createLogger', () => {
  it('redacts secrets in logged values, keys and messages', () => {
    const { logger, lines } = capture();
    logger.info({ note: `password=${SECRET}`, nested: { deeper: [`Bearer ${SECRET}`] } }, `api_key=${SECRET}`);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ note: 'password=[REDACTED]', msg: 'api_key=[REDACTED]' });
  });

  it('redacts the message and cause of a logged error', () => {
    const { logger, lines } = capture();
    logger.error({ err: new Error(`upstream refused token=${SECRET}`, { cause: new Error(`password: ${SECRET}`) }) }, 'failed');
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('censors credentials in headers and API keys outright, leaving the logged object as it was', () => {
    const { logger, lines } = capture();
    const logged = {
      headers: { authorization: 'opaque-credential-value' },
      req: { headers: { cookie: 'sid=xyz', authorization: 'opaque', accept: 'text/plain' } },
      apiKey: 'abc',
      provider: { apiKey: 'zzz', model: 'm' },
    };
    logger.info(logged, 'outbound');
    expect(lines[0]).toMatchObject({
      headers: { authorization: '[REDACTED]' },
      req: { headers: { cookie: '[REDACTED]', authorization: '[REDACTED]', accept: 'text/plain' } },
      apiKey: '[REDACTED]',
      provider: { apiKey: '[REDACTED]', model: 'm' },
    });
    expect(logged.provider.apiKey).toBe('zzz');
  });

  it('writes a request line with exactly its chosen fields', () => {
    const { logger, lines } = capture();
    logger.child({ reqId: 'req-1' }).info(new RequestLogLine('GET', '/healthz', 200, 0.42, null), 'request completed');
    const { level, time, pid, hostname, ...rest } = lines[0]!;
    expect([typeof level, typeof time, typeof pid, typeof hostname]).toEqual(['number', 'number', 'number', 'string']);
    expect(rest).toEqual({ reqId: 'req-1', method: 'GET', route: '/healthz', status: 200, durationMs: 0.42, owner: null, msg: 'request completed' });
  });

  it('writes a framework line byte for byte as pino itself would, bindings of a child logger included', () => {
    const written = vi.spyOn(RequestLogLine.prototype, 'logFields');
    const request = bothWays((logger) => logger.child({ reqId: 'req-1' }).info(new RequestLogLine('GET', '/api/tools/:name', 200, 0.42, 'owner-digest'), 'request completed'));
    expect(request.ours).toBe(request.pinos);
    expect(written).toHaveBeenCalledTimes(1); // our writer wrote it, pino's loop only the reference
    written.mockRestore();
    const unmatched = bothWays((logger) => logger.info(new RequestLogLine('POST', null, 404, Number.NaN, null), 'request completed'));
    expect(unmatched.ours).toBe(unmatched.pinos);
    expect(JSON.parse(unmatched.ours)).toMatchObject({ route: null, durationMs: null, owner: null });
    // The default writer: every own field, undefined ones left out, objects as JSON.
    const plain = bothWays((logger) => logger.warn(new PlainLine('with "quotes" and \\ a backslash', 3, { list: ['a', 'b'] }), 'plain line'));
    expect(plain.ours).toBe(plain.pinos);
    expect(JSON.parse(plain.ours)).not.toHaveProperty('absent');
  });

  it('leaves a framework line to pino where its write step would change it: a child with a message prefix, a destination that wants the line\'s parts', () => {
    const prefixed = bothWays((logger) => logger.child({ reqId: 'req-2' }, { msgPrefix: '[worker] ' }).info(new RequestLogLine('GET', '/healthz', 200, 1, null), 'request completed'));
    expect(prefixed.ours).toBe(prefixed.pinos);
    expect(JSON.parse(prefixed.ours)).toMatchObject({ msg: '[worker] request completed', reqId: 'req-2' });
    const seen: unknown[] = [];
    const metadata = { [Symbol.for('pino.metadata')]: true, lastObj: undefined as unknown, write(this: { lastObj: unknown }) { seen.push(this.lastObj); } };
    const logger = createLogger({ level: 'info', destination: metadata });
    const line = new RequestLogLine('GET', '/healthz', 200, 1, null);
    logger.info(line, 'request completed');
    expect(seen).toEqual([line]);
  });

  it('escapes what a JSON string must escape in a framework line, reading back the same text', () => {
    const awkward = 'tab\there, newline\n, quote " backslash \\ and a lone surrogate \ud800';
    const { ours, pinos } = bothWays((logger) => logger.info(new PlainLine(awkward, 0, null), 'request completed'));
    expect(JSON.parse(ours)).toEqual(JSON.parse(pinos));
    expect((JSON.parse(ours) as { name: string }).name).toBe(awkward);
  });

  it('still redacts format arguments logged beside a framework line', () => {
    const { logger, lines } = capture();
    logger.info(new RequestLogLine('GET', null, 404, 1, null), 'completed %s', `token=${SECRET}`);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});
