// The origin a client reached this service at, for the absolute URLs a few documents must carry (the
// MCP gateway's protected-resource metadata and its 401 challenge): the connection's scheme and the
// Host header. X-Forwarded-* is not read (the service trusts no proxy); a Host that is not a plain
// host[:port] is replaced by the address the connection arrived at, so nothing a client sends can
// break out of the quoted challenge or name another site's path.
import type { FastifyRequest } from 'fastify';

const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestOrigin(request: FastifyRequest): string {
  const host = request.headers.host;
  if (host !== undefined && PLAIN_HOST.test(host)) return `${request.protocol}://${host}`;
  const socket = request.raw.socket;
  const address = socket.localAddress ?? '127.0.0.1';
  return `${request.protocol}://${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}
