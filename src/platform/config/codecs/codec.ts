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

export interface Codec<T> {
  /** The type as the configuration reference shows it. */
  readonly display: string;
  /** Index-keyed sections (`Roots:0`, `Roots:1`, from environment variables) become arrays. */
  readonly list?: boolean;
  /** Appended to the camelCase target field name (durations are milliseconds: `HandleTtl` → `handleTtlMs`). */
  readonly fieldSuffix?: string;
  decode(raw: unknown, context: DecodeContext): Decoded<T>;
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
