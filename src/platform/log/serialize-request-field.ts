// What an access-log line says about a request: method, URL, host and peer address, never headers or
// bodies. pino runs our redacting log formatter before any serializer, and a deep copy of a live
// Fastify request loses its getters (the log said `"host": ""` and no address), so the request is
// reduced to these fields first; create-logger.ts keeps Fastify's serializer from undoing that.

interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  /** Fastify's request: the Host header (or the forwarded host when trusted). */
  readonly host?: string;
  readonly ip?: string;
  readonly raw: { readonly socket?: { readonly remotePort?: number } };
}

function isLiveRequest(value: unknown): value is LoggedRequest {
  return typeof value === 'object' && value !== null && 'raw' in value && typeof value.raw === 'object' && value.raw !== null;
}

/** Replaces a live `req` in a log object by its access-log fields; anything else is left as it is. */
export function serializeRequestField(object: Record<string, unknown>): Record<string, unknown> {
  const req = object.req;
  if (!isLiveRequest(req)) return object;
  return {
    ...object,
    req: { method: req.method, url: req.url, host: req.host, remoteAddress: req.ip, remotePort: req.raw.socket?.remotePort },
  };
}
