// The tree of one layer after the schema walk, and of all layers merged: fixed segments in their
// canonical spelling, map keys as written, list items by index. Later layers win per leaf and, as in
// ASP.NET, per list index: `…__DatasetRoots__1` over a file that sets item 0 yields both items. Gaps
// are checked only once every layer is merged (assemble-list.ts).
import type { RawValue } from './raw-node.js';

export interface ListItem {
  readonly value: RawValue;
  readonly source: string;
}

export type ConfigTree =
  | { readonly kind: 'section'; readonly children: ReadonlyMap<string, ConfigTree> }
  | { readonly kind: 'leaf'; readonly value: RawValue; readonly source: string }
  | {
      readonly kind: 'list';
      readonly items: ReadonlyMap<number, ListItem>;
      /** Set when the latest layer wrote a whole JSON array: its length and source. */
      readonly whole?: { readonly length: number; readonly source: string };
    };

export function mergeTrees(earlier: ConfigTree | undefined, later: ConfigTree): ConfigTree {
  if (earlier?.kind === 'list' && later.kind === 'list') {
    const items = new Map([...earlier.items, ...later.items]);
    return { kind: 'list', items, ...(later.whole !== undefined ? { whole: later.whole } : {}) };
  }
  if (earlier?.kind !== 'section' || later.kind !== 'section') return later;
  const children = new Map(earlier.children);
  for (const [name, child] of later.children) children.set(name, mergeTrees(children.get(name), child));
  return { kind: 'section', children };
}
