// The tree of one layer after the schema walk, and of all layers merged: fixed segments in their
// canonical spelling, map keys as written, arrays already assembled. Later layers win per leaf;
// an array is one leaf, so a later layer replaces a whole list rather than splicing items into it.
import type { RawValue } from './raw-node.js';

export type ConfigTree =
  | { readonly kind: 'section'; readonly children: ReadonlyMap<string, ConfigTree> }
  | { readonly kind: 'leaf'; readonly value: RawValue; readonly source: string };

export function mergeTrees(earlier: ConfigTree | undefined, later: ConfigTree): ConfigTree {
  if (earlier?.kind !== 'section' || later.kind !== 'section') return later;
  const children = new Map(earlier.children);
  for (const [name, child] of later.children) children.set(name, mergeTrees(children.get(name), child));
  return { kind: 'section', children };
}
