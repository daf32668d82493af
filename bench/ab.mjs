// Before/after of one benchmark that has no baseline of its own (issue #11 rows 5–7): runs the same
// benchmark script against two builds, whole runs alternated (A B, B A, …), and prints each figure's
// median (min..max) per side from the benchmarks' JSON lines.
//
//   node bench/ab.mjs <open-streams|workflow-chain|evals> <before-tree> [rounds=4]
//
// <before-tree> is a checkout of the older commit with its own `dist/` (for example
// `git archive <commit> | tar -x -C /tmp/before`, `node_modules` linked, `npm run build` there). This
// script copies this tree's bench/ into it first, so both sides run the same benchmark code.
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, show, spread } from './lib/stats.mjs';

/** The figures each benchmark's JSON line carries (smaller is better for all of them). */
const FIGURES = {
  'open-streams': {
    'RSS per stream (KiB)': (r) => r.perStreamRssKiB,
    'heap per stream (KiB)': (r) => r.perStreamHeapKiB,
    'peak RSS (MB)': (r) => r.peakRssMB,
    'heap with all open, last cycle (MB)': (r) => r.cycles.at(-1).open.heapUsed / 1e6,
    'RSS after close, last cycle (MB)': (r) => r.cycles.at(-1).closed.rss / 1e6,
    'heap after close, last cycle (MB)': (r) => r.cycles.at(-1).closed.heapUsed / 1e6,
    'heap growth after close, cycle 1 -> last (MB)': (r) => r.heapGrowthMB,
  },
  'workflow-chain': {
    'per step, median of the run (µs)': (r) => r.perStepUs.median,
    'first run after start-up, per step (µs)': (r) => r.coldPerStepUs,
    'service CPU per step, median (µs)': (r) => r.cpuPerStepUs.median,
  },
  evals: {
    'parallelism 128, median run (ms)': (r) => r.runs.find((run) => run.parallelism === 128).durationMs.median,
    'parallelism 128, ratio to ideal': (r) => r.runs.find((run) => run.parallelism === 128).ratio,
  },
};

const [name, beforeTree, roundsText] = process.argv.slice(2);
if (FIGURES[name] === undefined || beforeTree === undefined) {
  console.error(`usage: node bench/ab.mjs <${Object.keys(FIGURES).join('|')}> <before-tree> [rounds]`);
  process.exit(2);
}
const rounds = Number(roundsText ?? 4);
const here = fileURLToPath(new URL('..', import.meta.url));
cpSync(resolve(here, 'bench'), resolve(beforeTree, 'bench'), { recursive: true });
const trees = { before: resolve(beforeTree), after: resolve(here) };

const samples = await alternate(['before', 'after'], rounds, (side) => {
  const run = spawnSync(process.execPath, [resolve(trees[side], 'bench', name, 'run.mjs')], { encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  const line = run.stdout.split('\n').find((text) => text.startsWith(`{"benchmark":"${name}"`));
  if (run.status !== 0 || line === undefined) throw new Error(`${side}: ${name} failed (${run.status}):\n${run.stderr.slice(-2000)}`);
  const result = JSON.parse(line);
  const figures = Object.fromEntries(Object.entries(FIGURES[name]).map(([label, pick]) => [label, pick(result)]));
  console.log(`  ${side.padEnd(6)} ${JSON.stringify(figures)}`);
  return figures;
});

console.log(`\n${name}: before (${beforeTree}) vs after (this tree), ${rounds} alternated runs each; median (min..max)`);
const summary = {};
for (const label of Object.keys(FIGURES[name])) {
  const before = spread(samples.before.map((s) => s[label]), 1);
  const after = spread(samples.after.map((s) => s[label]), 1);
  summary[label] = { before, after };
  console.log(`  ${label.padEnd(46)} before ${show(before).padEnd(24)} after ${show(after)}`);
}
console.log(JSON.stringify({ benchmark: `ab:${name}`, rounds, summary }));
