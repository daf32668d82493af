// A logger destination that keeps every line written to it, parsed, for tests that assert on what
// the service logs (and how much).
import { Writable } from 'node:stream';

export interface LogCapture {
  /** Every line written so far, as written. */
  readonly lines: string[];
  /** Pass as `createLogger({ destination })`. */
  readonly destination: Writable;
}

export function captureLog(): LogCapture {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
      done();
    },
  });
  return { lines, destination };
}
