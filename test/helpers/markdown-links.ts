// The links of a Markdown document, read as GitHub renders them: `[text](target)` outside code
// blocks and code spans, and the anchors its headings get (GitHub's slugs: lower case, punctuation
// dropped, spaces as hyphens, `-1`, `-2` … for a repeated heading). The README and the docs are
// checked with them (test/integration/citations.test.ts): every relative link names a file that
// exists, and a heading that exists in it.

export interface MarkdownLink {
  readonly text: string;
  readonly target: string;
  /** 1-based line. */
  readonly line: number;
}

/** The document's lines with its fenced code blocks blanked (so lines still count). */
function outsideFences(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (opening !== null && opening[1]!.startsWith(fence)) fence = undefined;
      return '';
    }
    if (opening !== null) {
      fence = opening[1]!;
      return '';
    }
    return line;
  });
}

/** The document without its fenced code blocks and code spans (blanked, so lines and columns still count). */
export function withoutCode(markdown: string): string {
  return outsideFences(markdown)
    .map((line) => line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length)))
    .join('\n');
}

/** Every inline link and image of the document, code left out. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((line, index) => {
      for (const match of line.matchAll(/\[((?:[^[\]]|\[[^\]]*\])*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ text: match[1]!, target: match[2]!, line: index + 1 });
    });
  return links;
}

/** The anchor GitHub gives a heading's text. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading: its text
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a document's headings, in order, repeated ones numbered as GitHub numbers them. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
