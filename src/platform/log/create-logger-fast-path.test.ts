// createLogger's redaction and its framework-line fast path (the per-request line skips the redaction copy).
import { describe, expect, it } from 'vitest';
import { createLogger } from './create-logger.js';
import { RequestLogLine } from './request-log-line.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';

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

  it('still redacts format arguments logged beside a framework line', () => {
    const { logger, lines } = capture();
    logger.info(new RequestLogLine('GET', null, 404, 1, null), 'completed %s', `token=${SECRET}`);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});
