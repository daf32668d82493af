// The base of log objects whose every field the framework produced itself (ids, route patterns,
// statuses, durations, digests, names from its own catalogs and config): nothing a caller, model or
// tool wrote. The logger writes such a line as it is; every other logged object is deep-copied and
// scanned for secrets. A subclass declares its fields as readonly primitives and says where each
// comes from; anything that could carry content belongs in a plain object instead. It is logged with
// a constant message (`log.info(line, 'request completed')`); further arguments are redacted as usual.
//
// The line also writes its own fields as JSON (`logFields`), which the logger puts between pino's
// level, time and bindings and the message, exactly where pino would put them: a line on every
// request and every tool call costs about a quarter of what pino's generic field loop costs. The
// default writes every own enumerable field as JSON.stringify would; a hot line spells its fields out.
export abstract class FrameworkLogLine {
  /**
   * Whether this kind of line is written with the same fields string (the same string object) time
   * after time, so the logger keeps what follows the time from the last such line. A line whose
   * fields differ every time (the request line) says no: comparing them would cost a copy.
   */
  get repeatsFields(): boolean {
    return false;
  }

  /** The fields as JSON members, `"key":value,…` without braces (empty when there are none); undefined fields are left out. */
  logFields(): string {
    let members = '';
    for (const key in this) {
      const value: unknown = this[key];
      if (value === undefined || typeof value === 'function') continue;
      members += `${members === '' ? '' : ','}${jsonString(key)}:${JSON.stringify(value) ?? 'null'}`;
    }
    return members;
  }
}

/** Characters a JSON string must escape (and lone surrogates, which JSON.stringify writes as escapes). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The string as a JSON string: quoted as it is when nothing in it needs escaping, else JSON.stringify's. */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A string or null as JSON. */
export function jsonStringOrNull(text: string | null): string {
  return text === null ? 'null' : jsonString(text);
}

/** A number as JSON (pino writes a number that is not finite as null too). */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

