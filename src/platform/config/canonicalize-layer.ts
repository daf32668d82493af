// Applies the schema to one raw layer: fixed keys matched case-insensitively and respelled
// canonically, map keys kept as written, lists (JSON arrays and index-keyed sections alike) turned
// into items by index, and every unknown key under AppConfig reported (typo protection). Values are
// not decoded here, and list gaps are checked only after every layer is merged.
import type { ConfigTree } from './config-tree.js';
import { mergeTrees } from './config-tree.js';
import type { RawNode, RawValue } from './raw-node.js';
import type { SchemaNode, SchemaSection } from './schema-tree.js';

const INDEX = /^(0|[1-9]\d*)$/;

export interface CanonicalLayer {
  readonly tree: ConfigTree | undefined;
  readonly problems: readonly string[];
}

/** `schema` is the root: keys outside its sections (`Logging`, `AllowedHosts`, …) are not ours and are ignored. */
export function canonicalizeLayer(raw: RawNode, schema: SchemaSection): CanonicalLayer {
  const problems: string[] = [];
  const tree = walk(raw, schema, [], problems);
  return { tree, problems };
}

function walk(raw: RawNode, schema: SchemaNode, path: readonly string[], problems: string[]): ConfigTree | undefined {
  const key = path.join(':');
  if (schema.kind === 'leaf') {
    if (raw.kind === 'value' && schema.entry.codec.list && Array.isArray(raw.value)) return listOfArray(raw.value, raw.source);
    if (raw.kind === 'value') return { kind: 'leaf', value: raw.value, source: raw.source };
    if (schema.entry.codec.list) return listFrom(raw, key, problems);
    problems.push(`${key}: must be a value, not a section (in ${raw.source})`);
    return undefined;
  }
  if (raw.kind === 'value') {
    if (raw.value === null) return { kind: 'section', children: new Map() };
    problems.push(`${key}: must be a section of keys, not a value (in ${raw.source})`);
    return undefined;
  }
  const children = new Map<string, ConfigTree>();
  for (const [name, child] of raw.children) {
    const match = schema.kind === 'map' ? { name, node: schema.item } : schema.children.get(name.toLowerCase());
    if (match?.node === undefined) {
      if (path.length > 0) problems.push(`${key}:${name}: unknown key (in ${child.source})`);
      continue;
    }
    const tree = walk(child, match.node, [...path, match.name], problems);
    if (tree !== undefined) children.set(match.name, mergeTrees(children.get(match.name), tree));
  }
  return { kind: 'section', children };
}

/** A JSON array in a settings file is items 0…n-1 of that layer, as ASP.NET reads it. */
function listOfArray(values: readonly unknown[], source: string): ConfigTree {
  const items = new Map(values.map((value, index) => [index, { value: value as RawValue, source }] as const));
  return { kind: 'list', items, whole: { length: values.length, source } };
}

/** `Roots:0`, `Roots:1`, … (environment variables, or an index-keyed JSON object) as list items. */
function listFrom(raw: Extract<RawNode, { kind: 'section' }>, key: string, problems: string[]): ConfigTree | undefined {
  const items = new Map<number, { value: RawValue; source: string }>();
  let ok = true;
  for (const [name, child] of raw.children) {
    if (!INDEX.test(name)) {
      problems.push(`${key}:${name}: unknown key; array items are numbered 0, 1, 2, … (in ${child.source})`);
      ok = false;
    } else if (child.kind === 'section') {
      problems.push(`${key}:${name}: must be a value, not a section (in ${child.source})`);
      ok = false;
    } else {
      items.set(Number(name), { value: child.value, source: child.source });
    }
  }
  return ok ? { kind: 'list', items } : undefined;
}
