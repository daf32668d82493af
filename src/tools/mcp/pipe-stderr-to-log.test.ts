// pipeStderrToLog: a child's stderr in the log, line by line and bounded.
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { recordingLog } from './mcp-test-servers.js';
import { STDERR_MAX_LINE_CHARS, STDERR_MAX_LINES, pipeStderrToLog } from './pipe-stderr-to-log.js';

async function pump(chunks: string[]) {
  const log = recordingLog();
  const stream = new PassThrough();
  pipeStderrToLog(stream, 'everything', log);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await once(stream, 'end');
  return log.entries;
}

describe('pipeStderrToLog', () => {
  it('logs each line at info with the server name, joining lines split across chunks', async () => {
    const entries = await pump(['Starting ser', 'ver...\nready\r\n', '\n', 'last line without newline']);
    expect(entries.map((entry) => entry.object)).toEqual([
      { server: 'everything', stderr: 'Starting server...' },
      { server: 'everything', stderr: 'ready' },
      { server: 'everything', stderr: 'last line without newline' },
    ]);
    expect(entries.every((entry) => entry.level === 'info')).toBe(true);
  });

  it('cuts long lines and stops logging after the line bound while still draining the stream', async () => {
    const long = 'y'.repeat(STDERR_MAX_LINE_CHARS * 3);
    const lines = Array.from({ length: STDERR_MAX_LINES + 50 }, (_, index) => `line ${index}\n`);
    const entries = await pump([`${long}\n`, ...lines]);
    expect(String(entries[0]?.object.stderr)).toHaveLength(STDERR_MAX_LINE_CHARS + 1);
    expect(entries).toHaveLength(STDERR_MAX_LINES + 1);
    expect(entries.at(-1)?.message).toContain('suppressed');
  });
});
