// Caps what clients can hold open on the HTTP server: connections host-wide (Node closes the excess
// at once), connections per remote address (closed at once, so one client cannot take every slot
// and /healthz keeps answering everyone else), and tight header and keep-alive timeouts. A reverse
// proxy in front still has to limit per real client: behind it every connection has its address.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  /** Time to receive the request line and headers (checked by Node every few seconds). */
  readonly headersTimeoutMs: number;
  /** Idle time a keep-alive connection is kept between requests. */
  readonly keepAliveTimeoutMs: number;
}

export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
