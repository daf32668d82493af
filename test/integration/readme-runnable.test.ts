// The README's walkthroughs run as written, on a fresh clone, so a README that drifts from the code,
// or a block a reader could not paste as it stands, fails here. Which blocks run, and how, is marked in
// README.md itself: an HTML comment on the line before a ```sh fence, invisible once rendered (the
// grammar is in test/helpers/readme-blocks.ts):
//
//   <!-- runnable -->                pasted into the walkthrough's terminal; every command must succeed
//   <!-- runnable: background -->    starts a service (npm start, dev-idp, serve): it keeps running once
//                                    it prints "listening on", and the reader goes on in another terminal
//   options: session="…" (the walkthrough a block continues; default: its ## section), restart,
//   until="…", poll="…", expect="…"
//
// Unmarked blocks are illustrative: they need a real model's API key, a PostgreSQL server of your
// own, Docker or your own project. Nothing is filled in for a marked block but free ports: the ids it
// uses are the ones earlier blocks kept in shell variables with jq, and a variable nothing set fails
// it (set -u).
//
// Each walkthrough (session) runs in its own terminals, with its own free ports, concurrently with the
// others, in one clone of the committed HEAD (test/helpers/fresh-clone.ts: git clone, node_modules
// linked, dist/ copied and stamped — what `npm install` leaves, which it stands for, since a test
// downloads nothing). `npx portcullis` is typed as written: in that clone npx links the checkout
// into a private npm cache (offline) and runs its `prepare`, which finds dist/ up to date (checked
// below) and takes about a second. How commands are typed, ports and ids replaced, services
// stopped: test/helpers/readme-walkthrough.ts. The Integrating walkthrough runs in
// readme-integrating.test.ts, which checks more of what its receiver prints.
import { execFile, execFileSync } from 'node:child_process';
import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClone, type FreshClone } from '../helpers/fresh-clone.js';
import { walkthroughs } from '../helpers/readme-blocks.js';
import { Walkthrough } from '../helpers/readme-walkthrough.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Walkthroughs another test runs, with checks of its own. */
const RUN_ELSEWHERE = new Set(['Integrating: a nightly eval that posts a signed webhook']);
// The README of the commit the clone is made from, so the blocks run are the blocks committed.
const SESSIONS = walkthroughs(execFileSync('git', ['show', 'HEAD:README.md'], { cwd: REPO, encoding: 'utf8' }));

let clone: FreshClone;
/** Stopped again after all (a walkthrough that timed out may still be typing). */
const started: Walkthrough[] = [];
beforeAll(async () => {
  clone = await freshClone(REPO);
}, 120_000);
afterAll(async () => {
  await Promise.all(started.map((walkthrough) => walkthrough.stop()));
  await clone?.remove();
});

describe('README walkthroughs, on a fresh clone', () => {
  it("has the walkthroughs it promises; npx runs the clone's own build, which needs no rebuilding", async () => {
    expect([...SESSIONS.keys()]).toEqual(['Five-minute quickstart', 'Token quickstart', 'Workflows: a branch, a human gate, a stream', 'Evals: datasets, verdicts, JUnit', ...RUN_ELSEWHERE]);
    const check = await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs', '--check'], { cwd: clone.dir });
    expect(check.stdout.trim()).toBe('up to date');
    const npx = join(clone.env.npm_config_cache!, '_npx');
    const linked = await Promise.all((await readdir(npx)).map((entry) => realpath(join(npx, entry, 'node_modules', 'portcullis'))));
    expect(linked).toEqual([await realpath(clone.dir)]);
  });

  // The walkthroughs run at once, so on two shared cores each takes longer than its 1–2 minutes alone.
  for (const [name, blocks] of SESSIONS) {
    if (RUN_ELSEWHERE.has(name)) continue;
    it.concurrent(name, async () => {
      const scratch = join(clone.scratch, `walkthrough-${blocks[0]!.line}`);
      const walkthrough = await Walkthrough.start(name, blocks, { cwd: clone.dir, scratch, env: clone.env });
      started.push(walkthrough);
      try {
        await walkthrough.runAll();
      } finally {
        await walkthrough.stop();
      }
    }, 420_000);
  }
});
