// The key table folded into a tree: fixed sections (matched case-insensitively), maps (any key,
// spelling kept) and leaves (one key-table row each). Built once; a malformed table throws.
import { isMapSegment, type KeyEntry } from './key-entry.js';

export type SchemaNode = SchemaSection | SchemaMap | SchemaLeaf;

export interface SchemaSection {
  readonly kind: 'section';
  /** Keyed by lower-case name; `name` is the canonical spelling. */
  readonly children: Map<string, { readonly name: string; readonly node: SchemaNode }>;
}

export interface SchemaMap {
  readonly kind: 'map';
  item: SchemaNode | undefined;
}

export interface SchemaLeaf {
  readonly kind: 'leaf';
  readonly entry: KeyEntry;
}

export function buildSchemaTree(entries: readonly KeyEntry[]): SchemaSection {
  const root: SchemaSection = { kind: 'section', children: new Map() };
  for (const entry of entries) addEntry(root, entry);
  return root;
}

function addEntry(root: SchemaSection, entry: KeyEntry): void {
  const segments = entry.key.split(':');
  let container: SchemaSection | SchemaMap = root;
  for (const [index, segment] of segments.entries()) {
    const next = segments[index + 1];
    const node: SchemaNode = next === undefined ? { kind: 'leaf', entry } : newContainer(next);
    const placed: SchemaNode = place(container, segment, node, entry.key);
    if (placed.kind === 'leaf') return;
    container = placed;
  }
}

function newContainer(nextSegment: string): SchemaSection | SchemaMap {
  return isMapSegment(nextSegment) ? { kind: 'map', item: undefined } : { kind: 'section', children: new Map() };
}

/** Puts `node` under `segment` of `container`, or returns the container already there. */
function place(container: SchemaSection | SchemaMap, segment: string, node: SchemaNode, key: string): SchemaNode {
  if (isMapSegment(segment) !== (container.kind === 'map')) throw new Error(`key table: ${key} mixes map and fixed segments`);
  const existing = container.kind === 'map' ? container.item : container.children.get(segment.toLowerCase())?.node;
  if (existing === undefined) {
    if (container.kind === 'map') container.item = node;
    else container.children.set(segment.toLowerCase(), { name: segment, node });
    return node;
  }
  if (existing.kind === 'leaf' || node.kind === 'leaf') throw new Error(`key table: ${key} collides with another key`);
  if (node.kind !== existing.kind) throw new Error(`key table: ${key} mixes map and fixed segments`);
  return existing;
}
