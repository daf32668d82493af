// Progress of a long wait on stderr (stdout is kept for results): a cli-progress bar when stderr is a
// terminal, plain lines otherwise (one per change, as CI logs want them).
import cliProgress from 'cli-progress';
import type { RemoteIo } from './remote-command.js';

export interface Progress {
  /** `completed` of `total` steps done, with a short status label. */
  update(completed: number, total: number, label: string): void;
  stop(): void;
}

export function createProgress(io: RemoteIo): Progress {
  const terminal = io.terminal;
  if (terminal === undefined) {
    let last = '';
    return {
      update: (completed, total, label) => {
        const line = `${label} ${completed}/${total}`;
        if (line !== last) io.stderr((last = line));
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream: terminal, format: '{bar} {value}/{total} {label}', hideCursor: true, clearOnComplete: false, noTTYOutput: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (completed, total, label) => {
      if (!started) {
        bar.start(total, completed, { label });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(completed, { label });
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
