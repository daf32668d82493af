// SSE framing as pure functions: a JSON `data:` frame with an optional `id:`, and comment frames.
// LF only. Payloads are one JSON line by construction; what cannot be framed safely is refused.

export type SseEventId = string | number;

export function sseDataFrame(data: unknown, id?: SseEventId): string {
  // JSON.stringify escapes CR and LF inside strings, so the payload is always a single line.
  const json = JSON.stringify(data) as string | undefined;
  if (json === undefined) throw new TypeError('SSE data must be JSON-serialisable; got undefined, a function or a symbol');
  return id === undefined ? `data: ${json}\n\n` : `id: ${formatId(id)}\ndata: ${json}\n\n`;
}

/** One `: line` per line of text, then the blank line; clients ignore comments. */
export function sseCommentFrame(text: string): string {
  return `${text.split(/\r\n|\r|\n/).map((line) => `: ${line}\n`).join('')}\n`;
}

function formatId(id: SseEventId): string {
  if (typeof id === 'number' && !Number.isFinite(id)) throw new RangeError(`SSE id must be finite, got ${id}`);
  const text = String(id);
  if (/[\r\n\0]/.test(text)) throw new RangeError('SSE id must not contain CR, LF or NUL');
  return text;
}
