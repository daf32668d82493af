// The host's configured MCP servers, one connection each, as tool sources for the catalog. A server
// that cannot be reached contributes no tools and a logged warning; nothing here throws to the catalog.
import type { Clock } from '../../platform/clock/index.js';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { Tool } from '../tool.js';
import type { McpLog } from './mcp-log.js';
import { McpServerConnection } from './mcp-server-connection.js';

export interface McpServerManagerOptions {
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs?: number;
  readonly log: McpLog;
  readonly clock?: Clock;
  /** What Streamable HTTP servers are called through (tracing adds the trace context). */
  readonly fetch?: typeof globalThis.fetch;
}

/** Whether one configured server is connected, and on which protocol revision (`2026-07-28`, `2025-11-25`, …). */
export interface McpServerStatus {
  readonly connected: boolean;
  readonly protocolVersion?: string;
}

/** Server names end at the first `__` of a catalog name, so they must not contain one. */
const SERVER_NAME = /^(?!.*__)[^\s]{1,64}$/;

export class McpServerManager {
  readonly #connections = new Map<string, McpServerConnection>();
  readonly #log: McpLog;

  constructor(servers: Readonly<Record<string, McpServerConfig>>, options: McpServerManagerOptions) {
    this.#log = options.log;
    for (const [name, config] of Object.entries(servers)) {
      if (!SERVER_NAME.test(name)) {
        options.log.warn({ server: name.slice(0, 100) }, 'MCP server ignored: its name cannot form tool names');
        continue;
      }
      this.#connections.set(name, new McpServerConnection({ name, config, ...options }));
    }
  }

  servers(): string[] {
    return [...this.#connections.keys()];
  }

  async toolsOf(server: string, signal?: AbortSignal): Promise<Tool[]> {
    const connection = this.#connections.get(server);
    if (connection === undefined) return [];
    try {
      return await connection.listTools(signal);
    } catch (error) {
      // A caller that gave up is not a server fault: no warning, still no throw.
      if (signal?.aborted !== true) this.#log.warn({ server, err: error }, 'MCP server unavailable; its tools are not offered');
      return [];
    }
  }

  async allTools(signal?: AbortSignal): Promise<Tool[]> {
    const perServer = await Promise.all(this.servers().map((server) => this.toolsOf(server, signal)));
    return perServer.flat();
  }

  /** Per configured server, whether it is connected (connecting it if need be) and on which revision; readiness and the start-up banner. */
  async status(signal?: AbortSignal): Promise<Record<string, McpServerStatus>> {
    const entries = await Promise.all(
      [...this.#connections].map(async ([name, connection]): Promise<[string, McpServerStatus]> => {
        const connected = await connection.reachable(signal);
        const protocolVersion = connected ? connection.protocolVersion : undefined;
        return [name, protocolVersion === undefined ? { connected } : { connected, protocolVersion }];
      }),
    );
    return Object.fromEntries(entries);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#connections.values()].map((connection) => connection.close()));
  }
}
