// Whether stdout and stderr are one and the same file that is not a terminal — `serve 2>&1 | jq`,
// `serve >all.log 2>&1` — so the lines printed on stdout end up inside the JSON log (decision 2701).
// Two different pipes (how scripts read the `listening on` line) or a terminal answer false.
import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';

export function stdoutIsTheLog(): boolean {
  if (isatty(1)) return false;
  try {
    const out = fstatSync(1);
    const err = fstatSync(2);
    return out.dev === err.dev && out.ino === err.ino;
  } catch {
    return false;
  }
}
