// The first `portcullis` command on a fresh clone (issue 27, stumble 1): clone the committed HEAD,
// `npm ci` it (which builds, through `prepare`), then time `npx portcullis --version` with an empty
// npx cache each round (npx links the checkout into that cache and runs its `prepare`, which now
// builds only when an input changed), and the warm call after it.
//   node bench/first-command/run.mjs [--rounds 5] [--rev REV]   (REV: a commit to measure instead of HEAD)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { show, spread } from '../lib/stats.mjs';

const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const rounds = Number(option('--rounds')) || 5;
const rev = option('--rev');
const repo = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'portcullis-first-command-'));
const clone = join(scratch, 'clone');

function timed(command, args, env = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: clone, env: { ...process.env, ...env }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

try {
  execFileSync('git', ['clone', '-q', repo, clone]);
  if (rev) execFileSync('git', ['checkout', '-q', rev], { cwd: clone });
  const installMs = timed('npm', ['ci', '--no-audit', '--no-fund']);
  const first = [];
  const warm = [];
  for (let round = 0; round < rounds; round += 1) {
    const cache = join(scratch, `npm-cache-${round}`);
    first.push(timed('npx', ['portcullis', '--version'], { npm_config_cache: cache }));
    warm.push(timed('npx', ['portcullis', '--version'], { npm_config_cache: cache }));
    rmSync(cache, { recursive: true, force: true });
  }
  const firstSpread = spread(first, 0);
  const warmSpread = spread(warm, 0);
  console.log(`npm ci (builds once):                 ${Math.round(installMs)} ms`);
  console.log(`first npx portcullis --version:       ${show(firstSpread, ' ms')}`);
  console.log(`second npx portcullis --version:      ${show(warmSpread, ' ms')}`);
  console.log(JSON.stringify({ bench: 'first-command', rev: rev ?? 'HEAD', rounds, installMs: Math.round(installMs), firstMs: firstSpread, warmMs: warmSpread }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
