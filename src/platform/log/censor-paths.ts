// Fields censored outright whatever they hold: credentials in headers and API keys, which need not
// look like secrets to be ones. Applied to the logger's redacted copy (never to the caller's object),
// and only on plain logged objects: a FrameworkLogLine has no such fields.
const CENSORED = '[REDACTED]';

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

function censor(object: unknown, key: string): void {
  if (isFields(object) && object[key] !== undefined) object[key] = CENSORED;
}

/** `req.headers.authorization`, `req.headers.cookie`, `headers.authorization`, `apiKey` and `*.apiKey`. */
export function censorPaths<T>(object: T): T {
  if (!isFields(object)) return object;
  censor(object, 'apiKey');
  for (const key of Object.keys(object)) censor(object[key], 'apiKey');
  const req = object['req'];
  if (isFields(req)) {
    censor(req['headers'], 'authorization');
    censor(req['headers'], 'cookie');
  }
  censor(object['headers'], 'authorization');
  return object;
}
