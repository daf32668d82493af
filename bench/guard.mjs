// The hot-path guard (issue 36): `npm run bench:guard [-- --against <rev>] [--rounds N] [--only a,b]`.
// Runs the hot-path benchmarks of this working tree paired against another commit (default: the last
// commit on main): whole runs alternated (before after, after before, …), both sides running this
// tree's benchmark code on their own dist/. Per figure, the noise band is measured from the same run:
// the larger relative spread (max − min) ÷ median of the two sides' samples, at least FLOOR. A figure
// regressed when the after median is worse than the before median by more than its band. Exit 0: no
// figure regressed; 1: one did; 2: the guard could not measure (usage, build, or a benchmark failed).
// Timing on a shared machine is noisy, so this is run by hand before landing, not in CI (bench/README.md,
// "Hot-path guard").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FIGURES, copyBench, runFigures } from './lib/figures.mjs';
import { alternate, median } from './lib/stats.mjs';

/** The smallest band: below it a difference is not called a regression even when both sides were steady. */
const FLOOR = 0.03;

/**
 * The hot paths of issue 36's table, each with the knobs the guard runs it at: shorter than the
 * benchmarks' defaults where a whole run would otherwise take minutes (the guard's spread comes from
 * the alternated whole runs, not from rounds inside one).
 */
const HOT_PATHS = {
  'workflow-chain': { row: '1,000-step chain, µs per step (served, createdAt..completedAt, Memory)', env: { BENCH_WARMUP: '4', BENCH_RUNS: '9' } },
  workflows: { row: '1,000-step fan-out, µs per step (in process)', env: { BENCH_ROUNDS: '21' } },
  evals: { row: 'eval runner at parallelism 128 × ideal', env: { BENCH_PARALLELISM: '128', BENCH_RUNS: '3' } },
  register: { row: 'register a 10 MB / 2,000-entry archive × unzip', env: { BENCH_ROUNDS: '3' } },
  'bundle-poll': { row: 'authenticated poll (20 callers with JWTs) × bare Fastify', env: { BENCH_SECONDS: '2', BENCH_ROUNDS: '3' } },
  'tool-invoke': { row: 'direct invoke × bare Fastify', env: { BENCH_SECONDS: '2', BENCH_ROUNDS: '3' } },
  'open-streams': { row: '1,000 open streams, RSS', env: { BENCH_STREAMS: '1000', BENCH_CYCLES: '2' } },
};

const here = fileURLToPath(new URL('..', import.meta.url));
const git = (...args) => spawnSync('git', args, { cwd: here, encoding: 'utf8' });

function fail(message) {
  console.error(`bench:guard: ${message}`);
  process.exit(2);
}

function options(argv) {
  const opts = { against: 'main', rounds: 3, only: Object.keys(HOT_PATHS) };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[(i += 1)] ?? fail(`${flag} needs a value`);
    if (flag === '--against') opts.against = value();
    else if (flag === '--rounds') opts.rounds = Number(value());
    else if (flag === '--only') opts.only = value().split(',').filter(Boolean);
    else fail(`unknown option ${argv[i]}\nusage: npm run bench:guard [-- --against <git rev>] [--rounds N] [--only ${Object.keys(HOT_PATHS).join(',')}]`);
  }
  if (!Number.isInteger(opts.rounds) || opts.rounds < 2) fail('--rounds takes a whole number from 2 (the band needs a spread)');
  const unknown = opts.only.filter((name) => HOT_PATHS[name] === undefined);
  if (unknown.length > 0 || opts.only.length === 0) fail(`--only: unknown benchmark ${unknown.join(',')}; the hot paths are ${Object.keys(HOT_PATHS).join(',')}`);
  return opts;
}

/** The other tree, once per commit: `.bench-trees/<sha>/` (git ignores it), node_modules linked, built. */
function treeOf(sha) {
  const trees = join(here, '.bench-trees');
  const tree = join(trees, sha);
  const built = join(tree, '.guard-built');
  if (existsSync(built)) return tree;
  mkdirSync(trees, { recursive: true });
  if (!existsSync(join(tree, 'package.json'))) {
    const partial = `${tree}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial);
    const extract = spawnSync('sh', ['-c', `git archive ${sha} | tar -x -C '${partial}'`], { cwd: here, encoding: 'utf8' });
    if (extract.status !== 0) fail(`git archive ${sha} failed: ${extract.stderr}`);
    renameSync(partial, tree);
  }
  if (!existsSync(join(tree, 'node_modules'))) symlinkSync(realpathSync(join(here, 'node_modules')), join(tree, 'node_modules'));
  console.log(`building ${sha.slice(0, 10)} in .bench-trees/ (once per commit; log in .bench-trees/${sha}.build.log) …`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: tree, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(`${tree}.build.log`, `${build.stdout}\n${build.stderr}`);
  if (build.status !== 0) fail(`npm run build failed in ${tree}:\n${build.stderr.slice(-2000)}`);
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return tree;
}

/** Relative spread of one side's samples: (max − min) ÷ |median|. */
function relativeSpread(values) {
  const m = Math.abs(median(values));
  const width = Math.max(...values) - Math.min(...values);
  if (m === 0) return width === 0 ? 0 : Number.POSITIVE_INFINITY;
  return width / m;
}

/** Before and after samples of one figure → medians, change, band and verdict. */
function judge(before, after, { better, guard }) {
  const side = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
  const b = side(before);
  const a = side(after);
  const band = Math.max(relativeSpread(before), relativeSpread(after), FLOOR);
  const change = b.median === 0 ? null : (a.median - b.median) / Math.abs(b.median);
  const worse = change === null ? null : better === 'smaller' ? change : -change;
  let verdict = 'info';
  if (guard) verdict = worse === null ? 'n/a' : worse > band ? 'REGRESSED' : worse < -band ? 'better' : 'ok';
  return { before: b, after: a, changePct: change === null ? null : round(change * 100, 1), bandPct: round(band * 100, 1), verdict };
}

const round = (value, digits) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);
/** Three significant digits at most, no more decimals than that needs. */
const num = (value) => {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return round(value, digits).toLocaleString('en-US');
};
const shown = ({ median: m, min, max }) => `${num(m)} (${num(min)}..${num(max)})`;
const pct = (value) => (value === null ? '—' : `${value > 0 ? '+' : ''}${value}%`);

const opts = options(process.argv.slice(2));
const resolved = git('rev-parse', '--verify', '--quiet', `${opts.against}^{commit}`);
if (resolved.status !== 0) fail(`${opts.against} names no commit here`);
const sha = resolved.stdout.trim();
const head = git('rev-parse', 'HEAD').stdout.trim();
const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';

const started = performance.now();
const ownBuild = spawnSync(process.execPath, [join(here, 'scripts', 'build-if-changed.mjs')], { cwd: here, stdio: 'inherit' });
if (ownBuild.status !== 0) fail('building this tree failed');
const tree = treeOf(sha);
copyBench(here, tree);
const trees = { before: tree, after: resolve(here) };
const buildMinutes = round((performance.now() - started) / 60_000, 1);
const measuring = performance.now();

console.log(
  `\nbench:guard: before = ${opts.against} (${sha.slice(0, 10)}), after = this tree (${head.slice(0, 10)}${dirty ? ' + uncommitted changes' : ''}); ` +
    `${opts.rounds} alternated whole runs per side of ${opts.only.join(', ')}`,
);
const results = [];
const failed = [];
const total = opts.only.length * opts.rounds * 2;
let done = 0;
for (const name of opts.only) {
  const { env } = HOT_PATHS[name];
  let samples;
  try {
    samples = await alternate(['before', 'after'], opts.rounds, (side) => {
      const runStarted = performance.now();
      const figures = runFigures(trees[side], name, env);
      done += 1;
      const seconds = ((performance.now() - runStarted) / 1000).toFixed(0);
      const values = Object.values(figures).map((value) => num(value)).join(' · ');
      console.log(`  [${String(done).padStart(String(total).length)}/${total}] ${name} ${side.padEnd(6)} ${seconds.padStart(3)} s  ${values}`);
      return figures;
    });
  } catch (error) {
    console.log(`  ${name}: could not be measured: ${error.message.split('\n')[0]}`);
    failed.push({ benchmark: name, error: error.message.slice(0, 2000) });
    done = (opts.only.indexOf(name) + 1) * opts.rounds * 2;
    continue;
  }
  for (const [figure, meta] of Object.entries(FIGURES[name])) {
    const judged = judge(samples.before.map((s) => s[figure]), samples.after.map((s) => s[figure]), meta);
    results.push({ benchmark: name, figure, better: meta.better, guarded: meta.guard, ...judged });
  }
}

const minutes = round((performance.now() - measuring) / 60_000, 1);
const width = Math.max(...results.map((r) => r.figure.length + 9), 20);
console.log(`\nmedian (min..max) of ${opts.rounds} whole runs per side; band = the larger (max − min) ÷ median of the two sides, at least ${FLOOR * 100}%; measured in ${minutes} min (builds ${buildMinutes} min)`);
console.log(`${'figure'.padEnd(width)}  ${'before'.padEnd(26)}  ${'after'.padEnd(26)}  ${'change'.padStart(8)}  ${'band'.padStart(7)}  verdict`);
let current;
for (const r of results) {
  if (r.benchmark !== current) {
    current = r.benchmark;
    console.log(`${r.benchmark}: ${HOT_PATHS[r.benchmark].row}`);
  }
  const label = `  ${r.figure} ${r.better === 'smaller' ? '(↓)' : '(↑)'}`;
  console.log(`${label.padEnd(width)}  ${shown(r.before).padEnd(26)}  ${shown(r.after).padEnd(26)}  ${pct(r.changePct).padStart(8)}  ${`${r.bandPct}%`.padStart(7)}  ${r.verdict}`);
}
for (const f of failed) console.log(`${f.benchmark}: NOT MEASURED (${f.error.split('\n')[0]})`);
const regressed = results.filter((r) => r.verdict === 'REGRESSED');
const verdict = regressed.length > 0 ? 'regressed' : failed.length > 0 ? 'not measured' : 'pass';
console.log(
  `\n${verdict === 'pass' ? 'PASS: no guarded figure is worse than its band' : verdict === 'regressed' ? `REGRESSED: ${regressed.map((r) => `${r.benchmark} ${r.figure}`).join('; ')}` : `NOT MEASURED: ${failed.map((f) => f.benchmark).join(', ')}`}`,
);
console.log(
  JSON.stringify({
    benchmark: 'guard',
    against: { rev: opts.against, sha },
    after: { head, dirty },
    rounds: opts.rounds,
    floorPct: FLOOR * 100,
    minutes,
    buildMinutes,
    verdict,
    figures: results,
    failed: failed.map((f) => f.benchmark),
  }),
);
process.exitCode = verdict === 'regressed' ? 1 : verdict === 'pass' ? 0 : 2;
