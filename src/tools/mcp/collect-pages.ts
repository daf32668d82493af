// Follows a cursor-paginated listing (MCP `tools/list` and its `nextCursor`) to the end, within a
// bound on pages; it does not retry, cache or interpret the items.

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

export interface CollectedPages<T> {
  readonly items: T[];
  /** True when the bound was hit or a cursor repeated, so the listing may be incomplete. */
  readonly truncated: boolean;
}

export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages: number,
): Promise<CollectedPages<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined) return { items, truncated: false };
    // A server that hands back a cursor it already gave would loop until the bound; stop at once.
    if (seen.has(cursor)) return { items, truncated: true };
    seen.add(cursor);
  }
  return { items, truncated: true };
}
