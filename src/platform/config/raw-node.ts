// The tree one configuration source yields before any schema is applied: sections keyed by the
// spelling the source used, and values as the source wrote them. It knows nothing of which keys exist.

export type RawValue = string | number | boolean | null | readonly unknown[];

export type RawNode =
  | { readonly kind: 'section'; readonly source: string; readonly children: ReadonlyMap<string, RawNode> }
  | { readonly kind: 'value'; readonly source: string; readonly value: RawValue };

export function rawSection(source: string, children: ReadonlyMap<string, RawNode> = new Map()): RawNode {
  return { kind: 'section', source, children };
}

/** Later wins; two sections merge key by key (exact spelling), so `"A:B": 1` and `"A": {"C": 2}` combine. */
export function mergeRaw(earlier: RawNode | undefined, later: RawNode): RawNode {
  if (earlier?.kind !== 'section' || later.kind !== 'section') return later;
  const children = new Map(earlier.children);
  for (const [name, child] of later.children) children.set(name, mergeRaw(children.get(name), child));
  return rawSection(earlier.source, children);
}

/** Wraps `leaf` in sections along `segments` (ASP.NET keys: every `:` is one level). */
export function rawAt(segments: readonly string[], leaf: RawNode, source: string): RawNode {
  return segments.reduceRight<RawNode>((node, name) => rawSection(source, new Map([[name, node]])), leaf);
}

/** A parsed JSON document as a raw tree; object keys containing `:` open nested sections. */
export function rawFromJson(json: unknown, source: string): RawNode {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { kind: 'value', source, value: json as RawValue };
  }
  let section: RawNode = rawSection(source);
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    section = mergeRaw(section, rawAt(name.split(':'), rawFromJson(value, source), source));
  }
  return section;
}
