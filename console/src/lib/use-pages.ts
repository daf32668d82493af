// A newest-first list read page by page (DESIGN §12 `limit`/`cursor`): the first page, "load more"
// following `nextCursor`, and every refresh (asked, or on a timer) walking the same number of pages
// again, so a new item shows on top and those in view show their current state.
import { useState } from 'preact/hooks';
import { useApi } from './api-context';
import { useAsync } from './use-async';

const PAGE_SIZE = 20;

export interface Pages<T> {
  readonly items: readonly T[] | undefined;
  readonly error: unknown;
  /** Whether the service said more follow (a `nextCursor`). */
  readonly more: boolean;
  readonly loadMore: () => void;
  readonly refresh: () => void;
}

/** `path` answers `{ [field]: T[], nextCursor }`; `keyOf` tells items apart (a page boundary may repeat one). */
export function usePages<T>(path: string, field: string, keyOf: (item: T) => string, intervalMs?: number): Pages<T> {
  const api = useApi();
  const [pages, setPages] = useState(1);
  const list = useAsync(
    async (signal) => {
      const items: T[] = [];
      const seen = new Set<string>();
      let cursor: string | null = null;
      for (let page = 0; page < pages; page += 1) {
        const query: string = `limit=${PAGE_SIZE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const answer = await api.get<Record<string, unknown> & { nextCursor: string | null }>(`${path}?${query}`, signal);
        for (const item of answer[field] as T[]) {
          if (!seen.has(keyOf(item))) items.push(item);
          seen.add(keyOf(item));
        }
        cursor = answer.nextCursor;
        if (cursor === null) break;
      }
      return { items, more: cursor !== null };
    },
    [api, path, field, pages],
    intervalMs,
  );
  return {
    items: list.value?.items,
    error: list.error,
    more: list.value?.more ?? false,
    loadMore: () => setPages((n) => n + 1),
    refresh: () => list.reload(),
  };
}
