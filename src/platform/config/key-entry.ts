// One row of the declarative key table: the key's full path (map segments written `{name}`), its
// type and range (the codec), its default, and what it means. Parsing, validation and the
// configuration reference are all driven from these rows; nothing else lists keys.
import type { Codec } from './codecs/codec.js';

/** A default written the way a settings file would write it; it is decoded like any other value. */
export type RawDefault = string | number | boolean | null | readonly string[];

export interface DefaultContext {
  /** True when the environment name is Development (any case). */
  readonly development: boolean;
}

/** `T` is the decoded value and `Written` its default as written (see Codec); a bare KeyEntry is any row. */
export interface KeyEntry<T = unknown, Written extends RawDefault = RawDefault> {
  readonly key: string;
  readonly codec: Codec<T, Written>;
  /**
   * Absent when `required` (a field of a map item, such as an MCP server's Transport) and for map
   * values (`…:Env:{variable}`), which exist only where written.
   */
  readonly default?: Written | ((context: DefaultContext) => Written);
  readonly required?: boolean;
  /** The default as the reference displays it, when the raw default would read badly. */
  readonly defaultText?: string;
  readonly meaning: string;
  /** Where the value lands in AppConfig, when the camelCase rule of config-target.ts does not fit. */
  readonly target?: readonly string[];
  /** Never echo the value in problem messages. */
  readonly secret?: boolean;
}

/** Map segments are written `{name}`; everything else is a fixed, case-insensitive segment. */
export function isMapSegment(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}
