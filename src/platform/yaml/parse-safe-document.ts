// Parses YAML a caller or a bundle wrote under SAFE_YAML_OPTIONS, with the unique-key rule checked in
// one pass after parsing: the `yaml` package checks it by comparing each new key with every earlier one
// of its map, so 5,000 keys in 60 KB cost it about 100 ms more than the parse itself. Keys are compared
// by the text they become (`1` and `"1"` are one key), as they would meet in the parsed object. A
// duplicate is the same `DUPLICATE_KEY` error, at the second key, that the package reports.
import { isMap, isScalar, parseDocument, visit, YAMLParseError, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';
import { SAFE_YAML_OPTIONS } from './safe-yaml-options.js';

export function parseSafeDocument(text: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): Document.Parsed {
  const document = parseDocument(text, { ...SAFE_YAML_OPTIONS, ...options, uniqueKeys: false });
  if (document.errors.length === 0) {
    const at = firstDuplicateKey(document);
    if (at !== undefined) document.errors.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
  }
  return document;
}

/** The offset of the first key that repeats an earlier key of its map, if any. */
function firstDuplicateKey(document: Document.Parsed): number | undefined {
  let found: number | undefined;
  visit(document, {
    Map(_, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) {
          found = pair.key.range?.[0] ?? 0;
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}
