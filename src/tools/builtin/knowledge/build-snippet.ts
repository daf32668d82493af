// A short excerpt of a document around the first place one of the matched terms occurs.

const escape = (term: string): string => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function buildSnippet(text: string, terms: readonly string[], maxLength = 240): string {
  let at = -1;
  for (const term of terms) {
    if (term.length === 0) continue;
    const found = new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}`, 'iu').exec(text);
    if (found !== null && (at < 0 || found.index < at)) at = found.index;
  }
  let start = Math.max(0, at - maxLength / 4);
  if (start > 0) {
    // Begin at a word boundary rather than mid-word.
    const space = text.slice(start, at).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  let end = Math.min(text.length, start + maxLength);
  if (end < text.length) {
    const space = text.slice(start, end).search(/\s\S*$/);
    if (space > maxLength / 2) end = start + space;
  }
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
