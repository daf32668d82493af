// Parses settings-file JSON the way ASP.NET's JSON configuration provider does: `//` and `/* */`
// comments and trailing commas are allowed, a leading BOM is ignored. It does not accept any other
// JSON5 extension (single quotes, unquoted keys); those stay syntax errors.

export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonExtensions(text.replace(/^\uFEFF/, '')));
}

/** Blanks comments and trailing commas (keeping offsets, so JSON.parse positions stay true). */
function stripJsonExtensions(text: string): string {
  const out = text.split('');
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      i = skipString(text, i);
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') out[i++] = ' ';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) if (out[i] !== '\n') out[i] = ' ';
    } else if (ch === ',' && closesAfter(text, i + 1)) {
      out[i++] = ' ';
    } else {
      i++;
    }
  }
  return out.join('');
}

function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** True when only whitespace and comments stand between `from` and a closing bracket. */
function closesAfter(text: string, from: number): boolean {
  let i = from;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      return ch === '}' || ch === ']';
    }
  }
  return false;
}
