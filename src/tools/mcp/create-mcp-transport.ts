// Builds the SDK client transport for one configured MCP server: a spawned child over stdio, or
// Streamable HTTP. It does not connect; the connection owns start, close and reconnects.
//
// Environment of a stdio child: only the configured `Env` over the SDK's minimal inherited set
// (`getDefaultEnvironment()`: HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX). The host's own
// environment, secrets included, is never passed on; a server that needs a key gets it from `Env`.
//
// The stdio transport is the SDK's base class on purpose: the client's version probe recognises
// exactly that class and runs its `server/discover` on a disposable sibling process (see
// McpServerConnection), so a legacy server that exits on the unknown request never costs the session.
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { McpLog } from './mcp-log.js';
import { pipeStderrToLog } from './pipe-stderr-to-log.js';

/** `fetch`: what Streamable HTTP sends through (with tracing on, one that adds the trace context). */
export function createMcpTransport(server: string, config: McpServerConfig, log: McpLog, fetch?: typeof globalThis.fetch): Transport {
  if (config.transport === 'http') {
    // Redirects stay same-origin (the SDK default), so configured headers never follow one elsewhere.
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } }, ...(fetch === undefined ? {} : { fetch }) });
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...config.args],
    env: { ...config.env },
    stderr: 'pipe',
  });
  const stderr = transport.stderr as Readable | null;
  if (stderr !== null) pipeStderrToLog(stderr, server, log);
  return transport;
}
