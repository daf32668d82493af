// collectPages: follows nextCursor to the end, within a page bound.
import { describe, expect, it } from 'vitest';
import { collectPages, type Page } from './collect-pages.js';

function pagesOf(pages: Record<string, Page<number>>) {
  const asked: (string | undefined)[] = [];
  const fetchPage = (cursor: string | undefined): Promise<Page<number>> => {
    asked.push(cursor);
    const page = pages[cursor ?? ''];
    return page === undefined ? Promise.reject(new Error(`no page ${cursor}`)) : Promise.resolve(page);
  };
  return { asked, fetchPage };
}

describe('collectPages', () => {
  it('follows every nextCursor and returns the items in order', async () => {
    const { asked, fetchPage } = pagesOf({
      '': { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [4, 5] },
    });
    await expect(collectPages(fetchPage, 10)).resolves.toEqual({ items: [1, 2, 3, 4, 5], truncated: false });
    expect(asked).toEqual([undefined, 'b', 'c']);
  });

  it('stops at the page bound and says the listing was truncated', async () => {
    const { asked, fetchPage } = pagesOf({
      '': { items: [1], nextCursor: 'b' },
      b: { items: [2], nextCursor: 'c' },
      c: { items: [3], nextCursor: 'd' },
    });
    await expect(collectPages(fetchPage, 2)).resolves.toEqual({ items: [1, 2], truncated: true });
    expect(asked).toEqual([undefined, 'b']);
  });

  it('stops when a server hands back a cursor it already gave', async () => {
    const { asked, fetchPage } = pagesOf({ '': { items: [1], nextCursor: 'x' }, x: { items: [2], nextCursor: 'x' } });
    await expect(collectPages(fetchPage, 50)).resolves.toEqual({ items: [1, 2], truncated: true });
    expect(asked).toEqual([undefined, 'x']);
  });

  it('passes a page failure through to the caller', async () => {
    const { fetchPage } = pagesOf({ '': { items: [1], nextCursor: 'missing' } });
    await expect(collectPages(fetchPage, 5)).rejects.toThrow('no page missing');
  });
});
