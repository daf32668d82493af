// Cuts a reply into word-sized deltas (each word with its trailing whitespace) so the Scripted
// model exercises the same incremental paths a real streaming provider does.
export function splitIntoDeltas(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}
