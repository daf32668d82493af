// The one set of options under which Portcullis parses YAML a caller or a bundle wrote: YAML 1.2 core
// schema, no custom or YAML 1.1 tags (an unknown tag is an error, never code), no merge keys, unique
// keys, strict, silent. Alias budgets are the caller's (`toJS({ maxAliasCount })`).
import type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';

export const SAFE_YAML_OPTIONS: Readonly<ParseOptions & DocumentOptions & SchemaOptions> = Object.freeze({
  version: '1.2',
  schema: 'core',
  customTags: [],
  resolveKnownTags: false,
  merge: false,
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
  logLevel: 'silent',
});
