// Before/after of one benchmark against another build: runs the same benchmark script in both trees,
// whole runs alternated (A B, B A, …), and prints each figure's median (min..max) per side from the
// benchmarks' JSON lines (the figures and their directions: bench/lib/figures.mjs). Made for the
// benchmarks with no baseline of their own (issue #11 rows 5–7); `npm run bench:guard` runs every hot
// path this way against a commit and gives a verdict.
//
//   node bench/ab.mjs <open-streams|workflow-chain|evals|…> <before-tree> [rounds=4]
//
// <before-tree> is a checkout of the older commit with its own `dist/` (for example
// `git archive <commit> | tar -x -C /tmp/before`, `node_modules` linked, `npm run build` there). This
// script copies this tree's bench/ into it first, so both sides run the same benchmark code.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES, copyBench, runFigures } from './lib/figures.mjs';
import { alternate, show, spread } from './lib/stats.mjs';

const [name, beforeTree, roundsText] = process.argv.slice(2);
if (FIGURES[name] === undefined || beforeTree === undefined) {
  console.error(`usage: node bench/ab.mjs <${Object.keys(FIGURES).join('|')}> <before-tree> [rounds]`);
  process.exit(2);
}
const rounds = Number(roundsText ?? 4);
const here = fileURLToPath(new URL('..', import.meta.url));
copyBench(here, beforeTree);
const trees = { before: resolve(beforeTree), after: resolve(here) };

const samples = await alternate(['before', 'after'], rounds, (side) => {
  const figures = runFigures(trees[side], name);
  console.log(`  ${side.padEnd(6)} ${JSON.stringify(figures)}`);
  return figures;
});

console.log(`\n${name}: before (${beforeTree}) vs after (this tree), ${rounds} alternated runs each; median (min..max)`);
const summary = {};
for (const [label, { better }] of Object.entries(FIGURES[name])) {
  const before = spread(samples.before.map((s) => s[label]), 1);
  const after = spread(samples.after.map((s) => s[label]), 1);
  summary[label] = { before, after };
  console.log(`  ${`${label} (${better} is better)`.padEnd(72)} before ${show(before).padEnd(24)} after ${show(after)}`);
}
console.log(JSON.stringify({ benchmark: `ab:${name}`, rounds, summary }));
