// How deep a YAML text nests, measured on the lexer's tokens before any parsing: the parser's time and
// memory grow with nesting far faster than with size (40 KB of `[` takes it hundreds of milliseconds to
// refuse), while the lexer is linear and stops here as soon as the bound is passed. Counted: open flow
// collections, plus the block indicators (`-`, `?`, `:`) of the current line outside them (`- - - x`
// nests three sequences in one line). Nesting by indentation costs a line per level, so size bounds it.
import { CST, Lexer } from 'yaml';

const BLOCK_INDICATORS: ReadonlySet<string> = new Set(['seq-item-ind', 'explicit-key-ind', 'map-value-ind']);

/** Whether `text` nests deeper than `max` levels (quoted text, comments and block scalars never count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let flow = 0;
  let line = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-seq-start' || type === 'flow-map-start') flow += 1;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    else if (type === 'newline') line = 0;
    else if (flow === 0 && type !== null && BLOCK_INDICATORS.has(type)) line += 1;
    if (flow + line > max) return true;
  }
  return false;
}
