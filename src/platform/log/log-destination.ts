// Where `portcullis serve` writes its log: fd 2, in batches. Lines collect in a buffer that is written
// (synchronously, as before) once it holds 4 KiB or every 100 ms, whichever comes first, so a busy
// service makes one write(2) per few dozen lines instead of one per line (a write per request line
// cost up to a tenth of a small request's CPU time), and an idle one shows each line within 0.1 s.
// What is pending is written when the process exits, so only a process killed outright (SIGKILL)
// can lose its last lines.
import { pino, type DestinationStream } from 'pino';

export const LOG_BATCH_BYTES = 4096;
export const LOG_FLUSH_INTERVAL_MS = 100;

export type LogDestination = DestinationStream & { flushSync(): void };

export function stderrLogDestination(fd = 2): LogDestination {
  const destination = pino.destination({ dest: fd, sync: true, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS });
  // pino registers an exit flush only for asynchronous destinations.
  process.once('exit', () => destination.flushSync());
  return destination;
}
