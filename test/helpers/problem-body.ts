// DESIGN §10/§12: a problem document's `traceId` (and the `X-Request-Id` header) are per request, so
// they are the only parts two answers may differ in when they must otherwise be identical (foreign ≡
// unknown, every 401 the same). These take exactly that member out and keep everything else, member
// order included; they throw when the member is missing, so the comparison never passes vacuously.

/** The body text with its `traceId` member removed (everything else byte for byte). */
export function withoutTraceId(body: string): string {
  return JSON.stringify(stripTraceId(JSON.parse(body) as unknown));
}

/** The parsed body without its `traceId` member. */
export function stripTraceId<T>(document: T): Omit<T, 'traceId'> {
  if (typeof document !== 'object' || document === null || typeof (document as { traceId?: unknown }).traceId !== 'string') {
    throw new Error(`expected a problem document with a traceId, got ${JSON.stringify(document)}`);
  }
  const { traceId: _traceId, ...rest } = document as T & { traceId: string };
  return rest;
}

/** Response headers without the per-request ones (`x-request-id`, `date`). */
export function withoutPerRequestHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

/**
 * The body text without `traceId` and `instance` (the request path): all two answers for different ids
 * of one route may differ in (DESIGN §10), everything else byte for byte. Throws when either is missing.
 */
export function withoutIdEcho(body: string): string {
  const rest = stripTraceId(JSON.parse(body) as { instance?: unknown });
  if (typeof rest.instance !== 'string') throw new Error(`expected a problem document with an instance, got ${body}`);
  const { instance: _instance, ...others } = rest;
  return JSON.stringify(others);
}
