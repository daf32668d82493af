// The figures of the hot-path benchmarks, picked from each benchmark's JSON line, and how to run one
// benchmark script in a tree. Shared by bench/ab.mjs (before/after of one benchmark) and bench/guard.mjs
// (`npm run bench:guard`, every hot path against another commit).
//
// Each figure: `pick(result)` (a number from the JSON line), `better` ('smaller' or 'larger'), and
// `guard` (false: printed for reading, no verdict: a baseline that is not Portcullis, a figure near zero,
// or one that another figure of the same benchmark already carries).
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const smaller = (pick, guard = true) => ({ pick, better: 'smaller', guard });
const larger = (pick, guard = true) => ({ pick, better: 'larger', guard });

/** Throughput against bare Fastify (compare.mjs): the ratio of medians, and Portcullis's own figures. */
const throughput = () => ({
  'ratio to bare Fastify (req/s)': larger((r) => r.ratio.ofMedians),
  'server CPU per request (µs)': smaller((r) => r.portcullis.serverCpuUsPerRequest.median),
  'req/s': larger((r) => r.portcullis.requestsPerSecond.median, false),
  'bare Fastify req/s': larger((r) => r.bare.requestsPerSecond.median, false),
});

const at128 = (r) => r.runs.find((run) => run.parallelism === 128);

export const FIGURES = {
  // 1,000-step ToolUse chain over HTTP: the run's completedAt - startedAt ÷ steps (Memory storage).
  'workflow-chain': {
    'per step, median of the run (µs)': smaller((r) => r.perStepUs.median),
    'service CPU per step, median (µs)': smaller((r) => r.cpuPerStepUs.median),
    'first run after start-up, per step (µs)': smaller((r) => r.coldPerStepUs, false),
  },
  // The workflow engine in process: 1,000-step fan-out (and chain) against direct tool calls.
  workflows: {
    'fan-out, per step over direct calls (µs)': smaller((r) => r.fanOut.perStepOverheadUs),
    'fan-out run (ms)': smaller((r) => r.fanOut.runMs, false),
    'chain in process, per step over direct calls (µs)': smaller((r) => r.chain.perStepOverheadUs, false),
  },
  evals: {
    'parallelism 128, ratio to ideal': smaller((r) => at128(r).ratio),
    'parallelism 128, median run (ms)': smaller((r) => at128(r).durationMs.median, false),
    // Service CPU over a run at 128 (start and polls included); older JSON lines lack it (NaN).
    'parallelism 128, service CPU per run (ms)': smaller((r) => at128(r).serviceCpuMs?.median ?? Number.NaN, false),
    // The run over a bare client's same calls to the same fake (bench/lib/bare-client.mjs); older lines lack it.
    'parallelism 128, run over floor': smaller((r) => at128(r).overFloor?.median ?? Number.NaN, false),
  },
  register: {
    'register ÷ unzip -q': smaller((r) => r.ratio),
    'register (ms)': smaller((r) => r.registerMs.median, false),
    'unzip -q (ms)': smaller((r) => r.unzipMs.median, false),
  },
  'bundle-poll': throughput(),
  'tool-invoke': throughput(),
  'open-streams': {
    'RSS per stream (KiB)': smaller((r) => r.perStreamRssKiB),
    'heap per stream (KiB)': smaller((r) => r.perStreamHeapKiB),
    'peak RSS (MB)': smaller((r) => r.peakRssMB),
    'heap with all open, last cycle (MB)': smaller((r) => r.cycles.at(-1).open.heapUsed / 1e6, false),
    'RSS after close, last cycle (MB)': smaller((r) => r.cycles.at(-1).closed.rss / 1e6, false),
    'heap after close, last cycle (MB)': smaller((r) => r.cycles.at(-1).closed.heapUsed / 1e6, false),
    'heap growth after close, cycle 1 -> last (MB)': smaller((r) => r.heapGrowthMB, false),
  },
};

/** Copies `from`'s bench/ (not its results) over `tree`'s, so both sides run the same benchmark code. */
export function copyBench(from, tree) {
  cpSync(resolve(from, 'bench'), resolve(tree, 'bench'), { recursive: true, filter: (path) => basename(path) !== 'results' });
}

/**
 * Runs `bench/<name>/run.mjs` of `tree` (its own dist/) with `env` added, and returns the named figures
 * of its JSON line. Throws with the end of its stderr when it fails or prints no JSON line.
 */
export function runFigures(tree, name, env = {}) {
  const run = spawnSync(process.execPath, [resolve(tree, 'bench', name, 'run.mjs')], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const line = run.stdout.split('\n').find((text) => text.startsWith(`{"benchmark":"${name}"`));
  if (run.status !== 0 || line === undefined) throw new Error(`${tree}: ${name} failed (${run.status ?? run.signal}):\n${run.stderr.slice(-2000)}`);
  const result = JSON.parse(line);
  return Object.fromEntries(Object.entries(FIGURES[name]).map(([label, { pick }]) => [label, pick(result)]));
}
