// What the list commands (`approvals list`, `schedule list`, `schedule fires`, `webhook list`, `webhook
// deliveries`) share: paging through a list route's nextCursor (DESIGN §12), and printing the JSON
// document with --json, else one row per item with its columns aligned or a line saying there are none.

/** The largest page the list routes give (DESIGN §12 paging). */
export const PAGE_LIMIT = 200;

/** Every page a list route gives, first to last: `fetchPage` gets the previous page's nextCursor (none for the first). */
export async function* pagesOf<Page extends { readonly nextCursor?: string | null }>(fetchPage: (cursor: string | undefined) => Promise<Page>): AsyncGenerator<Page> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** Every item of an async sequence, in order (Array.fromAsync is Node 22's). */
export async function allOf<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** What a list command prints: with --json the document as the service answered it, else its lines, or `none` when there are none. */
export function printList(io: { readonly stdout: (line: string) => void }, json: boolean, document: unknown, lines: readonly string[], none: string): void {
  if (json) io.stdout(JSON.stringify(document));
  else if (lines.length === 0) io.stdout(none);
  else for (const line of lines) io.stdout(line);
}

/** One line per row, each column but the last padded to its widest cell, two spaces between columns; no trailing blanks when the last cells are empty. */
export function alignedLines(rows: ReadonlyArray<readonly string[]>): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd());
}
