// Walks the schema over the merged layers and decodes every key: a written value through its
// codec, an absent one from its default. A bad value is reported and replaced by its default so
// that every other problem can still be found; the keys that failed are returned for the rules.
import type { DecodeContext } from './codecs/codec.js';
import { emptyMap, setAt, targetPath } from './config-target.js';
import { assembleList } from './assemble-list.js';
import type { ConfigTree } from './config-tree.js';
import type { DefaultContext, KeyEntry } from './key-entry.js';
import type { RawValue } from './raw-node.js';
import type { SchemaNode, SchemaSection } from './schema-tree.js';

export interface BuildContext extends DecodeContext, DefaultContext {}

export interface BuiltConfig {
  readonly value: Record<string, unknown>;
  readonly problems: string[];
  readonly warnings: string[];
  /** Full keys (map keys substituted) whose configured value was refused. */
  readonly failedKeys: ReadonlySet<string>;
}

interface Builder extends BuiltConfig {
  readonly failedKeys: Set<string>;
}

export function buildConfig(tree: ConfigTree | undefined, schema: SchemaSection, context: BuildContext): BuiltConfig {
  const built: Builder = { value: {}, problems: [], warnings: [], failedKeys: new Set() };
  walk(schema, tree, [], [], context, built);
  return built;
}

function walk(
  schema: SchemaNode,
  tree: ConfigTree | undefined,
  pattern: readonly string[],
  concrete: readonly string[],
  context: BuildContext,
  built: Builder,
): void {
  if (schema.kind === 'leaf') return decodeLeaf(schema.entry, tree, concrete, context, built);
  const children = tree?.kind === 'section' ? tree.children : new Map<string, ConfigTree>();
  if (schema.kind === 'section') {
    for (const { name, node } of schema.children.values()) {
      walk(node, children.get(name), [...pattern, name], [...concrete, name], context, built);
    }
    return;
  }
  const item = schema.item;
  if (item === undefined) return;
  setAt(built.value, targetPath(pattern, concrete), emptyMap());
  for (const [key, child] of children) walk(item, child, [...pattern, '{key}'], [...concrete, key], context, built);
}

function decodeLeaf(
  entry: KeyEntry,
  tree: ConfigTree | undefined,
  concrete: readonly string[],
  context: BuildContext,
  built: Builder,
): void {
  const key = concrete.join(':');
  const target = entry.target ?? targetPath(entry.key.split(':'), concrete, entry.codec.fieldSuffix);
  let written: { readonly value: RawValue; readonly source: string } | undefined = tree?.kind === 'leaf' ? tree : undefined;
  if (tree?.kind === 'list') {
    const list = assembleList(tree);
    if (!list.ok) {
      built.problems.push(`${key}: ${list.message}`);
      built.failedKeys.add(key);
      return decodeDefault(entry, target, context, built);
    }
    if (list.warning !== undefined) built.warnings.push(`${key}: ${list.warning}`);
    written = { value: list.value, source: list.source };
  }
  if (written !== undefined) {
    const decoded = entry.codec.decode(written.value, context);
    const where = entry.secret ? `in ${written.source}` : `got ${show(written.value)} in ${written.source}`;
    if (decoded.ok) {
      if (decoded.warning !== undefined) built.warnings.push(`${key}: ${decoded.warning} (${where})`);
      return setAt(built.value, target, decoded.value);
    }
    built.problems.push(`${key}: ${decoded.message} (${where})`);
    built.failedKeys.add(key);
  } else if (entry.required) {
    built.problems.push(`${key}: is required`);
    built.failedKeys.add(key);
    return;
  }
  decodeDefault(entry, target, context, built);
}

function decodeDefault(entry: KeyEntry, target: readonly string[], context: BuildContext, built: Builder): void {
  if (entry.default === undefined) return;
  const raw = typeof entry.default === 'function' ? entry.default(context) : entry.default;
  const decoded = entry.codec.decode(raw, context);
  if (!decoded.ok) throw new Error(`key table: the default of ${entry.key} is invalid: ${decoded.message}`);
  setAt(built.value, target, decoded.value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
