// Whether a JSON text names a member of one object twice (RFC 7519 §4: a JWT parser must refuse that or
// keep the last; jose keeps the last, like JSON.parse). Refusing is the safer half: a claim set that says
// two things about `sub` or `exp` is not one an identity provider meant. One linear pass over text that
// is already known to be JSON (jose parsed it); names are compared unescaped, so "a" and "\u0061" meet.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function hasDuplicateKeys(json: string): boolean {
  /** One entry per open container: the member names of an object, null for an array. */
  const open: Array<Set<string> | null> = [];
  let atName = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json[i];
    if (c === '"') {
      let end = i + 1;
      while (end < json.length && json.charCodeAt(end) !== QUOTE) end += json.charCodeAt(end) === BACKSLASH ? 2 : 1;
      const names = open.at(-1);
      if (atName && names) {
        const name = JSON.parse(json.slice(i, end + 1)) as string;
        if (names.has(name)) return true;
        names.add(name);
      }
      atName = false;
      i = end;
    } else if (c === '{' || c === '[') {
      open.push(c === '{' ? new Set() : null);
      atName = c === '{';
    } else if (c === '}' || c === ']') {
      open.pop();
      atName = false;
    } else if (c === ',') {
      atName = open.at(-1) instanceof Set;
    }
  }
  return false;
}
