// What the unit tests of the CLI's remote commands share: an io that records what a command prints,
// a command line refused before anything is sent, and a client whose list route answers two pages,
// recording each query it was asked.
import { expect } from 'vitest';
import { createClient, type PortcullisClient } from '../../src/client/index.js';
import type { RemoteIo } from '../../src/cli/remote/index.js';

/** A RemoteIo whose stdout and stderr lines are kept in `out` and `err`. */
export function recordingIo(env: Readonly<Record<string, string | undefined>> = {}): RemoteIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), write: () => undefined, cwd: '.', env, signal: new AbortController().signal };
}

/** Runs a command line that must be refused before anything is sent (exit 2, nothing on stdout) and answers what it said on stderr. */
export async function refusedUsage(run: (args: string[], io: RemoteIo) => Promise<number>, args: string[]): Promise<string> {
  const t = recordingIo({ PORTCULLIS_URL: 'http://127.0.0.1:9' });
  expect(await run(args, t)).toBe(2);
  expect(t.out).toEqual([]);
  return t.err.join('\n');
}

/** A client whose list route answers `{ [key]: [first] , nextCursor: 'c2' }`, then (asked with that cursor) `{ [key]: [second], nextCursor: null }`. */
export function twoPageClient(key: string, first: unknown, second: unknown): { client: PortcullisClient; queries: Array<Record<string, string>> } {
  const queries: Array<Record<string, string>> = [];
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    fetch: (input) => {
      const url = new URL((input as Request).url);
      queries.push(Object.fromEntries(url.searchParams));
      const isFirst = !url.searchParams.has('cursor');
      const body = { [key]: [isFirst ? first : second], nextCursor: isFirst ? 'c2' : null };
      return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
    },
  });
  return { client, queries };
}
