// Splits a Claude-Code-style list string (`Read, Grep` or `Read Grep`) into items. Separators are
// commas and whitespace outside parentheses, so `Bash(git diff:*), Read` stays two items.
export function splitList(text: string): string[] {
  const items: string[] = [];
  let current = '';
  let depth = 0;
  for (const character of text) {
    if (character === '(') depth += 1;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (character === ',' || /\s/.test(character))) {
      if (current !== '') items.push(current);
      current = '';
      continue;
    }
    current += character;
  }
  if (current !== '') items.push(current);
  return items;
}
