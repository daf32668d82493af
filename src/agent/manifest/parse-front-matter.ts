// Parses front matter safely: YAML 1.2 core schema, no custom or YAML 1.1 tags (an unknown tag is an
// error, never code), no merge keys, unique string keys, one document, at most 64 KiB nested at most
// 32 deep (checked before the parser runs: a deep file costs it far more than a large one) and a small
// alias budget so a billion-laughs document fails fast. The result must be a mapping (empty is an
// empty mapping).
import { LineCounter } from 'yaml';
import { nestsDeeperThan, parseSafeDocument } from '../../platform/yaml/index.js';
import { FrontMatter } from './front-matter.js';

export const MAX_FRONT_MATTER_BYTES = 64 * 1024;
export const MAX_FRONT_MATTER_ALIASES = 16;
export const MAX_FRONT_MATTER_DEPTH = 32;

export type ParsedFrontMatter =
  | { readonly ok: true; readonly frontMatter: FrontMatter }
  /** `line` (1-based, within the front matter) and `yamlCode` (the parser's error code) locate a YAML error. */
  | { readonly ok: false; readonly cause: string; readonly line?: number; readonly yamlCode?: string };

export function parseFrontMatter(yaml: string): ParsedFrontMatter {
  if (Buffer.byteLength(yaml, 'utf8') > MAX_FRONT_MATTER_BYTES) return { ok: false, cause: 'too-large' };
  if (nestsDeeperThan(yaml, MAX_FRONT_MATTER_DEPTH)) return { ok: false, cause: 'too-deep' };
  const lines = new LineCounter();
  const document = parseSafeDocument(yaml, { stringKeys: true, lineCounter: lines });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined) {
    return { ok: false, cause: 'invalid-yaml', yamlCode: problem.code, line: lines.linePos(problem.pos[0]).line };
  }
  let data: unknown;
  try {
    data = document.toJS({ mapAsMap: true, maxAliasCount: MAX_FRONT_MATTER_ALIASES });
  } catch {
    return { ok: false, cause: 'alias-limit' };
  }
  if (data === null || data === undefined) data = new Map<string, unknown>();
  if (!(data instanceof Map)) return { ok: false, cause: 'not-a-mapping' };
  return { ok: true, frontMatter: new FrontMatter(document, data as Map<string, unknown>) };
}
