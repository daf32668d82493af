// Names of what this host writes into the staging root: `bundle-<host>-<pid>-…` directories and
// `upload-<host>-<pid>-….zip` files. The host tag and process id let a later process recognise what a
// crashed one of this host left behind; nothing without this host's tag is ever touched.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

export const HOST_TAG = createHash('sha256').update(hostname()).digest('base64url').slice(0, 8).replace(/[-_]/g, 'x');

export function stagingPrefix(kind: 'bundle' | 'upload', pid = process.pid): string {
  return `${kind}-${HOST_TAG}-${pid}-`;
}

/** The process id in a name this host wrote, or null for any other name. */
export function writerPid(name: string): number | null {
  const match = /^(?:bundle|upload)-([A-Za-z0-9]{8})-(\d{1,10})-/.exec(name);
  if (match === null || match[1] !== HOST_TAG) return null;
  return Number(match[2]);
}
