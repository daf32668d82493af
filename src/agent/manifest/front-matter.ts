// Typed reads of a parsed front-matter mapping. Scalars read as their source text, so `version: 1.0`
// stays "1.0" rather than becoming 1; lists read from a YAML sequence or a comma/space-separated
// string. A key of the wrong shape reads as `{ ok: false }` so each caller decides how to fail.
import { isScalar, type Document } from 'yaml';
import { splitList } from './split-list.js';

export type FrontMatterRead<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

const ok = <T>(value: T): FrontMatterRead<T> => ({ ok: true, value });
const wrongShape: FrontMatterRead<never> = { ok: false };

export class FrontMatter {
  readonly #document: Document;
  readonly #data: ReadonlyMap<string, unknown>;

  constructor(document: Document, data: ReadonlyMap<string, unknown>) {
    this.#document = document;
    this.#data = data;
  }

  /** A scalar as text; null when the key is absent or null. */
  text(key: string): FrontMatterRead<string | null> {
    const value = this.#data.get(key);
    if (value === undefined || value === null) return ok(null);
    if (typeof value === 'string') return ok(value);
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      const node = this.#document.get(key, true);
      return ok(isScalar(node) && typeof node.source === 'string' ? node.source : String(value));
    }
    return wrongShape;
  }

  /** A list of trimmed, non-empty, distinct items; null when absent, [] when present but empty. */
  list(key: string): FrontMatterRead<string[] | null> {
    if (!this.#data.has(key)) return ok(null);
    const value = this.#data.get(key);
    let items: string[];
    if (value === null || value === undefined) items = [];
    else if (typeof value === 'string') items = splitList(value);
    else if (Array.isArray(value)) {
      if (!value.every((item) => typeof item === 'string' || typeof item === 'number')) return wrongShape;
      items = value.map((item) => String(item));
    } else return wrongShape;
    return ok([...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))]);
  }
}
