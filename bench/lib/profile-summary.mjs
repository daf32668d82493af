// Summarises a .cpuprofile (from BENCH_PROFILE=<dir>): the top functions by self time and by
// inclusive time, as shares of busy (non-idle) samples. `node bench/lib/profile-summary.mjs <file> [N]
// [--skip-ms=M] [--until-ms=U]`: with --skip-ms, the first M ms of the profile (start-up, module
// loading) are left out; with --until-ms, everything from U ms on (to compare two windows of one run).
import { readFileSync } from 'node:fs';

const skipArg = process.argv.find((arg) => arg.startsWith('--skip-ms='));
const skipMs = skipArg === undefined ? 0 : Number(skipArg.slice('--skip-ms='.length));
const untilArg = process.argv.find((arg) => arg.startsWith('--until-ms='));
const untilMs = untilArg === undefined ? Number.POSITIVE_INFINITY : Number(untilArg.slice('--until-ms='.length));
const [file, topText] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const counts = new Map();
let elapsedUs = 0;
profile.samples.forEach((id, index) => {
  elapsedUs += profile.timeDeltas?.[index] ?? 0;
  if (elapsedUs >= skipMs * 1000 && elapsedUs < untilMs * 1000) counts.set(id, (counts.get(id) ?? 0) + 1);
});

const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
};
const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
let busy = 0;
let gc = 0;
const self = new Map();
const inclusive = new Map();
for (const [id, count] of counts) {
  const node = nodes.get(id);
  const name = node.callFrame.functionName;
  if (name === '(garbage collector)') gc += count;
  if (idle.has(name) && name !== '(garbage collector)') continue;
  busy += count;
  self.set(label(node), (self.get(label(node)) ?? 0) + count);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const key = label(nodes.get(at));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + count);
  }
}
const pct = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
console.log(`busy samples ${busy} (gc ${pct(gc)})\n-- self --`);
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${key}`);
console.log('-- inclusive --');
for (const [key, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${key}`);
