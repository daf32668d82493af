import { execFileSync, spawn } from 'node:child_process';
import { constants, openSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './create-logger.js';
import { LOG_FLUSH_INTERVAL_MS, stderrLogDestination, type LogDestination } from './log-destination.js';

let dir: string;
let destination: LogDestination;
let exit: () => void;
const written = (): string => readFileSync(join(dir, 'log'), 'utf8');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-log-'));
});
afterEach(async () => {
  (destination as unknown as { destroy(): void }).destroy(); // closes the file and the flush timer
  await rm(dir, { recursive: true, force: true });
});

/** The destination on a file of the test's, with the exit flush it registers taken off into `exit`. */
function open(): LogDestination {
  const before = new Set(process.listeners('exit'));
  destination = stderrLogDestination(openSync(join(dir, 'log'), 'w'));
  const onExit = process.listeners('exit').find((listener) => !before.has(listener))!;
  process.off('exit', onExit);
  exit = () => onExit.call(process, 0);
  return destination;
}

describe('the serve log destination', () => {
  it('writes every line of a burst, in order, the last ones when the process exits', () => {
    const logger = createLogger({ destination: open() });
    for (let i = 0; i < 1000; i += 1) logger.info({ i }, 'line');
    expect(written().trim().split('\n').length).toBeLessThan(1000);
    exit();
    const lines = written().trim().split('\n').map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('keeps multi-byte text intact across batches', () => {
    const logger = createLogger({ destination: open() });
    const text = 'ünïcödé 😀 中文 '.repeat(40);
    for (let i = 0; i < 50; i += 1) logger.info({ i, text }, 'line');
    exit();
    const lines = written().trim().split('\n').map((line) => JSON.parse(line) as { i: number; text: string });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(lines.every((line) => line.text === text)).toBe(true);
  });

  it('holds a lone line back only until the flush interval passes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const logger = createLogger({ destination: open() });
      logger.info('alone');
      expect(written()).toBe('');
      vi.advanceTimersByTime(LOG_FLUSH_INTERVAL_MS);
      await expect.poll(() => written()).toContain('"msg":"alone"');
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes every line in order when the pipe it writes to is full (EAGAIN and partial writes)', async () => {
    // A FIFO whose reader opens it at once and reads only after a pause: a non-blocking writer fills
    // its 64 KiB and then is refused or written in part, and the lines must still arrive whole and in order.
    const fifo = join(dir, 'fifo');
    const out = join(dir, 'out');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('sh', ['-c', 'exec 3<"$0"; sleep 0.5; cat <&3 > "$1"', fifo, out], { stdio: 'ignore' });
    let fd = -1;
    await expect.poll(() => {
      try {
        fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        return true;
      } catch {
        return false; // ENXIO until the reader has it open
      }
    }).toBe(true);
    const before = new Set(process.listeners('exit'));
    destination = stderrLogDestination(fd);
    const onExit = process.listeners('exit').find((listener) => !before.has(listener))!;
    process.off('exit', onExit);
    const logger = createLogger({ destination });
    const pad = 'x'.repeat(200);
    for (let i = 0; i < 2000; i += 1) logger.info({ i, pad }, 'line');
    onExit.call(process, 0);
    (destination as unknown as { destroy(): void }).destroy();
    destination = { destroy: () => undefined } as unknown as LogDestination;
    await once(reader, 'exit');
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
