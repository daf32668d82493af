// Assembles a merged list (items by index from every layer) into the array its codec decodes: the
// indexes must run 0, 1, 2, … without gaps once all layers are merged. A whole JSON array that a
// later layer wrote but that is shorter than what earlier layers left is ASP.NET's well-known
// surprise (the extra items survive), so it is assembled as ASP.NET does and reported as a warning.
import type { ConfigTree } from './config-tree.js';
import type { RawValue } from './raw-node.js';

export type AssembledList =
  | { readonly ok: true; readonly value: RawValue; readonly source: string; readonly warning?: string }
  | { readonly ok: false; readonly message: string };

export function assembleList(list: Extract<ConfigTree, { kind: 'list' }>): AssembledList {
  const indexes = [...list.items.keys()].sort((a, b) => a - b);
  const sources = [...new Set(indexes.map((index) => list.items.get(index)!.source))];
  const where = sources.join(', ');
  if (indexes.some((index, position) => index !== position)) {
    return { ok: false, message: `array items must be numbered 0, 1, 2, … without gaps (found ${indexes.join(', ')}) (in ${where})` };
  }
  const value = indexes.map((index) => list.items.get(index)!.value);
  const whole = list.whole;
  const warning =
    whole !== undefined && whole.length < value.length
      ? `${whole.source} sets ${whole.length} item(s) but items ${whole.length}–${value.length - 1} from an earlier layer remain (arrays merge by index, as in ASP.NET; set those indexes to override them)`
      : undefined;
  return { ok: true, value, source: where, ...(warning !== undefined ? { warning } : {}) };
}
