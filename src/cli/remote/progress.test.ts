// Progress output: a drawn bar on a terminal, one plain line per change otherwise.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';
import type { RemoteIo } from './remote-command.js';

function io(terminal?: NodeJS.WriteStream): RemoteIo & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    stdout: () => undefined,
    stderr: (line) => errors.push(line),
    write: () => undefined,
    cwd: '.',
    env: {},
    signal: new AbortController().signal,
    ...(terminal ? { terminal } : {}),
  };
}

describe('createProgress', () => {
  it('prints one plain line per change when stderr is not a terminal', () => {
    const out = io();
    const progress = createProgress(out);
    progress.update(0, 4, 'Queued');
    progress.update(0, 4, 'Queued');
    progress.update(3, 4, 'Running');
    progress.stop();
    expect(out.errors).toEqual(['Queued 0/4', 'Running 3/4']);
  });

  it('draws a bar with the counts on a terminal', () => {
    let drawn = '';
    const tty = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          drawn += chunk.toString();
          done();
        },
      }),
      { isTTY: true, columns: 80, rows: 24 },
    ) as unknown as NodeJS.WriteStream;
    const out = io(tty);
    const progress = createProgress(out);
    progress.update(1, 4, 'Running');
    progress.update(4, 4, 'Running');
    progress.stop();
    expect(drawn).toContain('4/4 Running');
    expect(drawn).toMatch(/█/);
    expect(out.errors).toEqual([]);
  });
});
