// Summarises a .heapsnapshot: self size and count by constructor/type name, largest first.
// `node bench/lib/heap-summary.mjs <file> [N]` (for diagnosis, with BENCH_HEAP_SNAPSHOT).
import { readFileSync } from 'node:fs';

const [file, topText] = process.argv.slice(2);
const snapshot = JSON.parse(readFileSync(file, 'utf8'));
const { node_fields: fields, node_types: [types] } = snapshot.snapshot.meta;
const width = fields.length;
const at = (name) => fields.indexOf(name);
const [typeAt, nameAt, sizeAt] = [at('type'), at('name'), at('self_size')];
const groups = new Map();
for (let i = 0; i < snapshot.nodes.length; i += width) {
  const type = types[snapshot.nodes[i + typeAt]];
  const name = type === 'object' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
  const group = groups.get(name) ?? { count: 0, bytes: 0 };
  group.count += 1;
  group.bytes += snapshot.nodes[i + sizeAt];
  groups.set(name, group);
}
for (const [name, { count, bytes }] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(topText ?? 40))) {
  console.log(`${(bytes / 1024 / 1024).toFixed(2).padStart(8)} MB ${String(count).padStart(9)}  ${name.slice(0, 90)}`);
}
