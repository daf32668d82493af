// What a client may see after decoding JSON string escapes: a secret written as `\u0067hp_…` (or
// with `\/`, `\"` and the rest) is plain text to anyone who parses it. Redaction therefore scans the
// decoded text too, up to MAX_DECODE_LEVELS nested levels, each with the offset in the original text
// of every decoded character, so what it finds is cut out of the original. Pure; linear per level.

/** A decoding of the text, and for each of its characters (plus its end) the offset in the original. */
export interface DecodedView {
  readonly text: string;
  readonly rawOffsets: Int32Array;
}

/** JSON inside a JSON string inside a JSON string: deeper nesting is not something clients decode. */
export const MAX_DECODE_LEVELS = 3;

const SIMPLE: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Successive decodings of `raw`, each mapped back to `raw`; none when it holds no escape. */
export function* decodedViews(raw: string): Generator<DecodedView> {
  let text = raw;
  let toRaw: Int32Array | undefined; // undefined: the identity
  for (let level = 0; level < MAX_DECODE_LEVELS && text.includes('\\'); level += 1) {
    const next = decodeEscapes(text);
    if (next === undefined) return;
    const mapped: Int32Array = toRaw === undefined ? next.rawOffsets : next.rawOffsets.map((offset) => toRaw![offset]!);
    text = next.text;
    toRaw = mapped;
    yield { text, rawOffsets: mapped };
  }
}

/** One level of JSON string-escape decoding; undefined when nothing in `text` decodes. */
export function decodeEscapes(text: string): DecodedView | undefined {
  const pieces: string[] = [];
  const offsets = new Int32Array(text.length + 1);
  let length = 0;
  let decoded = false;
  let i = 0;
  while (i < text.length) {
    // Copy the run up to the next backslash in one piece.
    const slash = text.indexOf('\\', i);
    const runEnd = slash === -1 ? text.length : slash;
    if (runEnd > i) {
      pieces.push(text.slice(i, runEnd));
      for (let at = i; at < runEnd; at += 1) offsets[length++] = at;
      i = runEnd;
      continue;
    }
    offsets[length++] = i;
    const next = text[i + 1];
    const hex = next === 'u' ? text.slice(i + 2, i + 6) : '';
    if (next !== undefined && next in SIMPLE) {
      pieces.push(SIMPLE[next]!);
      i += 2;
      decoded = true;
    } else if (hex.length === 4 && /^[0-9a-fA-F]{4}$/.test(hex)) {
      pieces.push(String.fromCharCode(Number.parseInt(hex, 16)));
      i += 6;
      decoded = true;
    } else {
      pieces.push('\\');
      i += 1;
    }
  }
  if (!decoded) return undefined;
  offsets[length] = text.length;
  return { text: pieces.join(''), rawOffsets: offsets.slice(0, length + 1) };
}
