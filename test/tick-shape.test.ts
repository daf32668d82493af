// `portcullis serve` holds the shape of Node's `process.nextTick` entries (decision 3610): V8's
// record of the entry literal's computed-key definitions turns megamorphic for good once a full
// garbage collection has let the shape die, and every tick after that is built by a runtime call. A
// probe (test/fixtures/tick-shape-probe.mjs) makes ticks, collects with none queued, makes more and
// prints the record; plain Node shows the hazard, the service must not.
import { spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli-process.js';

const PROBE = fileURLToPath(new URL('./fixtures/tick-shape-probe.mjs', import.meta.url));

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * Starts `args` under node with the probe preloaded, its output to a file (V8 writes its print with
 * stdio, which a non-blocking pipe may cut short), waits for `ready` in it, signals the probe and
 * answers the exit code and the states V8 printed for `process.nextTick`'s computed-key definitions.
 */
async function probed(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ code: number | null; states: string[]; output: string }> {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-tick-shape-'));
  const file = join(dir, 'output.txt');
  const handle = await open(file, 'w');
  const child = spawn(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import ${PROBE}`, ...env }, stdio: ['ignore', handle.fd, handle.fd] });
  await handle.close();
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let running = true;
  void exited.then(() => (running = false));
  let output = '';
  while (running && !ready.test(output)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    output = await readFile(file, 'utf8');
  }
  child.kill('SIGUSR2');
  const code = await exited;
  output = await readFile(file, 'utf8');
  return { code, output, states: [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '') };
}

describe('the shape of process.nextTick entries', () => {
  it('plain Node loses it to a full collection with no tick queued (the hazard the service guards against)', async () => {
    const result = await probed(['-e', "console.log('ready'); setTimeout(() => {}, 60_000)"], {}, /^ready$/m);
    expect(result.code).toBe(0);
    // If a Node release stops losing the shape, this fails: decision 3610 can then be retired.
    expect(result.states, result.output.slice(-2000)).toContain('MEGAMORPHIC');
  }, 30_000);

  it('portcullis serve keeps it monomorphic through a full collection with no tick queued', async () => {
    const development = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };
    const result = await probed([CLI, 'serve', '--port', '0'], development, /listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(result.code).toBe(0);
    expect(result.states.length, result.output.slice(-2000)).toBeGreaterThanOrEqual(3);
    expect(result.states.every((state) => state === 'MONOMORPHIC')).toBe(true);
  }, 60_000);
});
