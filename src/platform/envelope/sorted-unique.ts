// Deduplicates and sorts strings in code-unit order, so envelope lists are deterministic whatever the
// locale; it does not normalise case (callers decide whether a list is case-sensitive).

export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
