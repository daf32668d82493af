import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitConnections } from './connection-limits.js';

describe('limitConnections', () => {
  it('sets the host-wide cap and the header and keep-alive timeouts on the server', () => {
    const server = createServer();
    limitConnections(server, { maxConnections: 100, maxConnectionsPerAddress: 10, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    expect(server.maxConnections).toBe(100);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.keepAliveTimeout).toBe(5_000);
  });
});
