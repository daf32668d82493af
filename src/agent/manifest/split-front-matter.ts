// Separates YAML front matter from a Markdown body: the file must open with a `---` line and the
// front matter ends at the next `---` or `...` line. No opening line means no front matter; an
// opening line with no closing one is malformed, not a body.
export type SplitFrontMatter =
  | { readonly kind: 'none'; readonly body: string }
  | { readonly kind: 'unterminated' }
  | { readonly kind: 'present'; readonly yaml: string; readonly body: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

export function splitFrontMatter(text: string): SplitFrontMatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { kind: 'none', body: text };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) return { kind: 'unterminated' };
  return { kind: 'present', yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}
