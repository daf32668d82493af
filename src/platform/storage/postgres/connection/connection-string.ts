// The PostgreSQL connection string as a secret: checks that a configured value is a libpq URI
// (`postgres://user:password@host:5432/database`), describes where it points without its password,
// and scrubs passwords out of any text that might carry one (driver messages, pasted strings) in
// both libpq forms, URIs and `key=value` lists. It does not connect or parse options for the driver.

const URI = /^postgres(?:ql)?:\/\//i;
const URI_IN_TEXT = /postgres(?:ql)?:\/\/[^\s'"<>]+/gi;
// `password = 'it''s'`, `sslpassword=x`: libpq key=value pairs, values bare or single-quoted with `\` escapes.
const KEY_VALUE_PASSWORD = /(\b(?:ssl)?password\s*=\s*)(?:'(?:[^'\\]|\\.)*'?|[^\s'&#]+)/gi;
const HIDDEN = '***';

/** True for a `postgres://` or `postgresql://` URI that parses. */
export function isPostgresUri(text: string): boolean {
  if (!URI.test(text)) return false;
  try {
    // A libpq URI may list several hosts (`h1:1,h2:2`), which URL refuses; check the rest on the first.
    new URL(text.replace(/^([^:]+:\/\/(?:[^@/?#]*@)?)([^,/?#]*)(?:,[^/?#]*)?/, '$1$2'));
    return true;
  } catch {
    return false;
  }
}

/** The connection string with its password (userinfo, `password=` parameters) replaced by `***`. */
export function redactConnectionString(text: string): string {
  if (!URI.test(text.trim())) return text.replace(KEY_VALUE_PASSWORD, `$1${HIDDEN}`);
  return redactUri(text);
}

/**
 * Any text with every password it may carry hidden: URIs and key=value pairs found in it, and the
 * literal password of `connectionString` wherever it appears (decoded or as written), when that
 * password is long enough to be told apart from ordinary words.
 */
export function scrubConnectionSecrets(text: string, connectionString?: string): string {
  let scrubbed = text.replace(URI_IN_TEXT, (uri) => redactUri(uri)).replace(KEY_VALUE_PASSWORD, `$1${HIDDEN}`);
  for (const secret of passwordsOf(connectionString)) {
    if (secret.length >= 4) scrubbed = scrubbed.split(secret).join(HIDDEN);
  }
  return scrubbed;
}

/** Where the string points, for messages: `postgres://user:***@host:5432/database` (never the password). */
export function describeConnectionTarget(connectionString: string): string {
  const redacted = redactConnectionString(connectionString);
  return URI.test(connectionString) ? redacted.replace(/[?#].*$/, '') : 'the configured database';
}

function redactUri(uri: string): string {
  const schemeEnd = uri.indexOf('://') + 3;
  const tail = uri.slice(schemeEnd);
  const queryAt = tail.search(/[?#]/);
  const head = queryAt === -1 ? tail : tail.slice(0, queryAt);
  const rest = queryAt === -1 ? '' : tail.slice(queryAt);
  const at = head.lastIndexOf('@');
  let authority = head;
  if (at !== -1) {
    const userinfo = head.slice(0, at);
    const colon = userinfo.indexOf(':');
    authority = colon === -1 ? head : `${userinfo.slice(0, colon)}:${HIDDEN}${head.slice(at)}`;
  }
  const query = rest.replace(/([?&](?:ssl)?password=)[^&#]*/gi, `$1${HIDDEN}`);
  return `${uri.slice(0, schemeEnd)}${authority}${query}`;
}

function passwordsOf(connectionString: string | undefined): string[] {
  if (connectionString === undefined) return [];
  const found = new Set<string>();
  const raw: string[] = [];
  if (URI.test(connectionString)) {
    const tail = connectionString.slice(connectionString.indexOf('://') + 3);
    const queryAt = tail.search(/[?#]/);
    const head = queryAt === -1 ? tail : tail.slice(0, queryAt);
    const at = head.lastIndexOf('@');
    const colon = at === -1 ? -1 : head.slice(0, at).indexOf(':');
    if (colon !== -1) raw.push(head.slice(colon + 1, at));
    for (const match of connectionString.matchAll(/[?&](?:ssl)?password=([^&#]*)/gi)) raw.push(match[1] ?? '');
  } else {
    for (const match of connectionString.matchAll(/\b(?:ssl)?password\s*=\s*('(?:[^'\\]|\\.)*'?|[^\s'&#]+)/gi)) {
      const value = match[1] ?? '';
      raw.push(value.startsWith("'") ? value.slice(1, value.endsWith("'") ? -1 : undefined).replace(/\\(.)/g, '$1') : value);
    }
  }
  for (const value of raw) {
    if (value === '') continue;
    found.add(value);
    try {
      found.add(decodeURIComponent(value));
    } catch {
      // not percent-encoded: the raw form is enough
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}
