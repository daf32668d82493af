// Precision checks the rules apply to a candidate secret: placeholders, references and entropy.
// Each check runs on at most a few hundred characters; none of them scans the surrounding text.
import { REDACTED } from './redacted.js';

const placeholderWords = new Set([
  'null', 'nil', 'none', 'undefined', 'true', 'false', 'empty', 'redacted', 'hidden', 'masked', 'secret',
  'password', 'token', 'string', 'str', 'bytes', 'text', 'number', 'int', 'any', 'optional', 'required',
  'example', 'placeholder', 'your_password', 'your_token', 'your_api_key', 'xxx', 'todo', 'tbd', 'n/a',
]);

/** `${VAR}`, `{{ x }}`, `<token>`, `%(x)s`, `$VAR`, `$(cmd)`, a lone `$` (a cut-off `${…}`), masks like `****`, `xxxx`, `....`. */
const templateOrMask = /^(?:\$\{|\{\{|<|%\(|%s$|\$[A-Za-z_(]|\$$)|^(?:\*+|x+|X+|\.+|#+|-+)$/;
/** A dotted identifier such as `process.env.DB_PASSWORD`, `this.password` or `z.string`. */
const dottedReference = /^[A-Za-z_$][\w$]{0,23}(?:\.[A-Za-z_$][\w$]{0,23}){1,8}$/;

/** True for values that stand in for a secret rather than being one, the marker included. */
export function isPlaceholder(value: string): boolean {
  return value.trim() === '' || value === REDACTED || placeholderWords.has(value.toLowerCase()) || templateOrMask.test(value) || dottedReference.test(value);
}

/** Shannon entropy in bits per UTF-16 code unit; a typed-array count keeps it cheap on long values. */
export function shannonEntropy(value: string): number {
  const ascii = new Uint32Array(128);
  const other = new Map<number, number>();
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 128) ascii[code]! += 1;
    else other.set(code, (other.get(code) ?? 0) + 1);
  }
  let bits = 0;
  const add = (count: number): void => {
    const p = count / value.length;
    if (count > 0) bits -= p * Math.log2(p);
  };
  ascii.forEach(add);
  other.forEach(add);
  return bits;
}

/** Looks machine-generated: letters mixed with digits, or high entropy; never a placeholder. */
export function looksGenerated(value: string, minEntropy = 3.5): boolean {
  if (isPlaceholder(value)) return false;
  const mixed = /[0-9]/.test(value) && /[A-Za-z]/.test(value);
  return mixed || shannonEntropy(value) >= minEntropy;
}

/** Any value that is not a placeholder. */
export const notPlaceholder = (value: string): boolean => !isPlaceholder(value);

/** For a token glued to the word before it: letters and digits both present, as generated tokens have. */
export const lettersAndDigits = (value: string): boolean => /[0-9]/.test(value) && /[A-Za-z]/.test(value);
