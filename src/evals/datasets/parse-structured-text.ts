// Safe parsing of dataset text. YAML: 1.2 core schema, no custom or 1.1 tags, no merge keys, unique
// keys, one document, a small alias budget (a billion-laughs file fails fast). JSON: depth-capped
// before parsing, prototype-poisoning keys refused. Problems are short and quote no content.
import secureJsonParse from 'secure-json-parse';
import { parseSafeDocument } from '../../platform/yaml/index.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../platform/http/json-body-parser.js';

export const MAX_YAML_ALIASES = 100;

export type StructuredText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

export function parseYamlText(text: string): StructuredText {
  const document = parseSafeDocument(text);
  const [first] = document.errors;
  if (first !== undefined) {
    const line = first.linePos?.[0]?.line;
    return { ok: false, problem: `is not valid YAML${line === undefined ? '' : ` (line ${line})`}` };
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown };
  } catch {
    return { ok: false, problem: `uses more than ${MAX_YAML_ALIASES} YAML alias expansions` };
  }
}

export function parseJsonText(text: string): StructuredText {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, problem: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown };
  } catch {
    return { ok: false, problem: 'is not valid JSON' };
  }
}
