// What a configuration value type is: how it reads a raw value (JSON or an environment string)
// and how it is named in the configuration reference. Codecs check one value; rules that relate
// several keys live in ../rules/.

export type Decoded<T> =
  | { readonly ok: true; readonly value: T; readonly warning?: string }
  | { readonly ok: false; readonly message: string };

export interface DecodeContext {
  /** Relative paths are resolved against this directory. */
  readonly cwd: string;
}

/** Type only, never set: carries a codec's `Written` type so a key table can check its defaults. */
declare const written: unique symbol;

/**
 * `T` is the decoded value; `Written` is how a key table writes its default, which is decoded like any
 * configured value (the same type, except where text is read into something else: a TimeSpan).
 */
export interface Codec<T, Written = T> {
  /** The type as the configuration reference shows it. */
  readonly display: string;
  /** Index-keyed sections (`Roots:0`, `Roots:1`, from environment variables) become arrays. */
  readonly list?: boolean;
  /** Appended to the camelCase target field name (durations are milliseconds: `HandleTtl` → `handleTtlMs`). */
  readonly fieldSuffix?: string;
  decode(raw: unknown, context: DecodeContext): Decoded<T>;
  readonly [written]?: Written;
}

export function accept<T>(value: T): Decoded<T> {
  return { ok: true, value };
}

export function refuse(message: string): Decoded<never> {
  return { ok: false, message };
}

/** True for values that stand for "not set": null, or a blank string (an emptied environment variable). */
export function isBlank(raw: unknown): boolean {
  return raw === null || (typeof raw === 'string' && raw.trim() === '');
}
