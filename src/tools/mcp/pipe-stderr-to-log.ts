// Relays a stdio MCP server's stderr to the log line by line, bounded in line length and count so a
// chatty or hostile server cannot flood the log. The stream is always drained, so the child never
// blocks on a full pipe once the bound is reached.
import type { Readable } from 'node:stream';
import type { McpLog } from './mcp-log.js';

export const STDERR_MAX_LINE_CHARS = 1_000;
export const STDERR_MAX_LINES = 200;

export function pipeStderrToLog(stream: Readable, server: string, log: McpLog): void {
  const write = (log.info ?? log.warn).bind(log);
  let partial = '';
  let lines = 0;

  const emit = (line: string): void => {
    if (line.trim() === '') return;
    lines += 1;
    if (lines <= STDERR_MAX_LINES) {
      const text = line.length > STDERR_MAX_LINE_CHARS ? `${line.slice(0, STDERR_MAX_LINE_CHARS)}…` : line;
      write({ server, stderr: text }, 'MCP server stderr');
    } else if (lines === STDERR_MAX_LINES + 1) {
      write({ server }, 'MCP server stderr: further output suppressed');
    }
  };

  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    if (lines > STDERR_MAX_LINES) return;
    const pieces = (partial + chunk).split('\n');
    partial = pieces.pop() ?? '';
    for (const piece of pieces) emit(piece.replace(/\r$/, ''));
    // A line without end is cut at the bound rather than buffered without limit.
    if (partial.length > STDERR_MAX_LINE_CHARS) {
      emit(partial);
      partial = '';
    }
  });
  stream.on('end', () => emit(partial));
  stream.on('error', () => undefined);
}
