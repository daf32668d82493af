// Where `portcullis serve` writes its log: fd 2, in batches. Lines collect in an array that is written
// (synchronously, as before) once it holds 4 KiB or every 100 ms, whichever comes first, so a busy
// service makes one write(2) per few dozen lines instead of one per line (a write per request line
// cost up to a tenth of a small request's CPU time), and an idle one shows each line within 0.1 s.
// What is pending is written when the process exits, so only a process killed outright (SIGKILL)
// can lose its last lines. The batch is joined once and written as text with one write(2): Node
// encodes it on the way out, and no Buffer is made for it (making one cost about half a
// microsecond a line, a third of what the line cost to write). Anything but a whole write — a pipe
// that is full (EAGAIN), a partial write, an error — hands what is left to sonic-boom, which owns
// the hard cases (retrying, partial writes, error events), and every later batch goes through it
// too, so nothing is written out of order. Batching inside sonic-boom re-measured the growing batch
// on every line and encoded it twice per write, a tenth of a workflow step's CPU time.
import { writeSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

export const LOG_BATCH_BYTES = 4096;
export const LOG_FLUSH_INTERVAL_MS = 100;

export type LogDestination = DestinationStream & { flushSync(): void };

export function stderrLogDestination(fd = 2): LogDestination {
  const destination = new BatchedDestination(fd);
  // pino registers an exit flush only for asynchronous destinations.
  process.once('exit', () => destination.flushSync());
  return destination;
}

class BatchedDestination implements LogDestination {
  readonly #fd: number;
  readonly #sink: ReturnType<typeof pino.destination>;
  /** Batches are written here directly until one is not written whole; from then on sonic-boom writes them. */
  #direct = true;
  readonly #timer: NodeJS.Timeout;
  #lines: string[] = [];
  /** UTF-16 units pending: a batch of 4,096 of them is at least 4 KiB. */
  #length = 0;

  constructor(fd: number) {
    this.#fd = fd;
    this.#sink = pino.destination({ dest: fd, sync: true, contentMode: 'buffer' });
    this.#timer = setInterval(() => this.#flush(), LOG_FLUSH_INTERVAL_MS).unref();
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= LOG_BATCH_BYTES) this.#flush();
  }

  flushSync(): void {
    this.#flush();
    this.#sink.flushSync();
  }

  /** Writes what is pending and closes the file (tests). */
  destroy(): void {
    clearInterval(this.#timer);
    this.#flush();
    this.#sink.destroy();
  }

  #flush(): void {
    if (this.#lines.length === 0) return;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#length = 0;
    let written = 0;
    if (this.#direct) {
      try {
        written = writeSync(this.#fd, text);
      } catch {
        // EAGAIN or a failing descriptor (nothing written): sonic-boom makes the write again and deals with it.
      }
      if (written === Buffer.byteLength(text)) return;
      this.#direct = false;
    }
    const batch = Buffer.from(text, 'utf8');
    // contentMode 'buffer': the typings know only strings.
    this.#sink.write((written === 0 ? batch : batch.subarray(written)) as unknown as string);
  }
}
