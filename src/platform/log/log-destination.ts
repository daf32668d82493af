// Where `portcullis serve` writes its log: fd 2, in batches. Lines collect in an array that is written
// (synchronously, as before) once it holds 4 KiB or every 100 ms, whichever comes first, so a busy
// service makes one write(2) per few dozen lines instead of one per line (a write per request line
// cost up to a tenth of a small request's CPU time), and an idle one shows each line within 0.1 s.
// What is pending is written when the process exits, so only a process killed outright (SIGKILL)
// can lose its last lines. The batch is joined and encoded once and handed to sonic-boom (which
// owns the writing: partial writes, EAGAIN); batching inside sonic-boom re-measured the growing
// batch on every line and encoded it twice per write, a tenth of a workflow step's CPU time.
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
  readonly #sink: ReturnType<typeof pino.destination>;
  readonly #timer: NodeJS.Timeout;
  #lines: string[] = [];
  /** UTF-16 units pending: a batch of 4,096 of them is at least 4 KiB. */
  #length = 0;

  constructor(fd: number) {
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
    const batch = Buffer.from(this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join(''), 'utf8');
    this.#lines = [];
    this.#length = 0;
    this.#sink.write(batch as unknown as string); // contentMode 'buffer': the typings know only strings
  }
}
