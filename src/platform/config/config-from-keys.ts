// The configuration's type, computed from key-table rows by the rule config-target.ts applies at run
// time: `AppConfig` (and `AI`) dropped, fixed segments camelCase with the codec's suffix on the last,
// `{name}` segments read-only records keyed as written, and a row's explicit `target` taken as is.
import type { Codec } from './codecs/codec.js';
import type { KeyEntry } from './key-entry.js';

/**
 * `decoded`: as build-config leaves it, where a required key that was missing or refused is absent;
 * `settled`: loadConfig found no problem, so every required key is set.
 */
export type ConfigPhase = 'decoded' | 'settled';

export type ConfigFromKeys<Row extends KeyEntry, Phase extends ConfigPhase> = Shape<Row extends KeyEntry ? FieldOf<Row, Phase> : never>;

/** One row as a field: where it lands, and what it holds there. */
interface Field {
  readonly path: readonly string[];
  readonly value: unknown;
}

interface FieldOf<Row extends KeyEntry, Phase extends ConfigPhase> extends Field {
  readonly path: TargetOf<Row>;
  readonly value: Row['codec'] extends Codec<infer T, unknown> ? (Row extends { readonly required: true } ? Present<T, Phase> : T) : never;
}

type Present<T, Phase extends ConfigPhase> = Phase extends 'settled' ? T : T | undefined;

type TargetOf<Row extends KeyEntry> = Row extends { readonly target: infer Path extends readonly string[] }
  ? Path
  : Suffixed<CamelCase<Unprefixed<Segments<Row['key']>>>, SuffixOf<Row['codec']>>;

type Segments<Key extends string> = Key extends `${infer Head}:${infer Rest}` ? [Head, ...Segments<Rest>] : [Key];

/** The first segment (`AppConfig`) always goes, the second too when it is `AI`. */
type Unprefixed<Path extends readonly string[]> = Path extends readonly [string, infer Second extends string, ...infer Rest extends string[]]
  ? Lowercase<Second> extends 'ai'
    ? Rest
    : [Second, ...Rest]
  : [];

type MapSegment = `{${string}}`;

type CamelCase<Path extends readonly string[]> = { [I in keyof Path]: Path[I] extends MapSegment ? Path[I] : Uncapitalize<Path[I]> };

type SuffixOf<C> = C extends { readonly fieldSuffix: infer Suffix extends string } ? Suffix : '';

/** The codec's suffix goes on the field a value lands in, never on a map key. */
type Suffixed<Path extends readonly string[], Suffix extends string> = Path extends readonly [...infer Init extends string[], infer Last extends string]
  ? Last extends MapSegment
    ? Path
    : [...Init, `${Last}${Suffix}`]
  : Path;

/** Fields that all end here are one value; `{name}` heads make a record; fixed heads a section. */
type Shape<F extends Field> = [F] extends [{ readonly path: readonly [] }]
  ? F['value']
  : [Head<F>] extends [MapSegment]
    ? Readonly<Record<string, Shape<Under<F, Head<F>>>>>
    : { readonly [Name in Head<F>]: Shape<Under<F, Name>> };

type Head<F extends Field> = F extends { readonly path: readonly [infer First extends string, ...string[]] } ? First : never;

/** The fields under `Name`, one segment shorter (a head may be a union: the rate-limit target names every policy). */
type Under<F extends Field, Name extends string> = F extends { readonly path: readonly [infer First, ...infer Rest extends readonly string[]] }
  ? Name extends First
    ? { readonly path: Rest; readonly value: F['value'] }
    : never
  : never;
