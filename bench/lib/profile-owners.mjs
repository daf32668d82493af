// Attributes every busy sample of a .cpuprofile to the nearest frame of the project's own code
// (dist/src/…) on its stack: what a module of ours costs including the Node and library work it calls
// directly (a socket write, a JSON parse), which the self/inclusive lists of profile-summary.mjs split
// apart. `node bench/lib/profile-owners.mjs <file> [N] [--skip-ms=M] [--by=function|file]`; samples with
// no project frame on their stack are grouped by their leaf (timers, sockets, GC).
import { readFileSync } from 'node:fs';

const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const skipMs = Number(option('skip-ms') ?? 0);
const by = option('by') ?? 'function';
const [file, topText] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const top = Number(topText ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const ours = (node) => /\/dist\/src\//.test(node.callFrame.url);
const where = (node) => node.callFrame.url.replace(/^.*\/dist\/src\//, '').replace(/^.*\/node_modules\//, 'node_modules/').replace(/^file:\/\//, '');
const label = (node) => (by === 'file' ? where(node) : `${node.callFrame.functionName || '(anonymous)'} ${where(node)}:${node.callFrame.lineNumber + 1}`);
const idle = new Set(['(idle)', '(program)']);

const owners = new Map();
let busy = 0;
let elapsedUs = 0;
profile.samples.forEach((id, index) => {
  elapsedUs += profile.timeDeltas?.[index] ?? 0;
  if (elapsedUs < skipMs * 1000) return;
  const leaf = nodes.get(id);
  if (idle.has(leaf.callFrame.functionName)) return;
  busy += 1;
  let owner = null;
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const node = nodes.get(at);
    if (ours(node)) {
      owner = label(node);
      break;
    }
  }
  const key = owner ?? `[no project frame] ${leaf.callFrame.functionName || '(anonymous)'} ${where(leaf)}`;
  owners.set(key, (owners.get(key) ?? 0) + 1);
});
const pct = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
console.log(`busy samples ${busy}, each owned by the nearest project frame (by ${by})`);
for (const [key, n] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${key}`);
