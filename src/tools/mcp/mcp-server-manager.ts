// The host's configured MCP servers, one connection each, as tool sources for the catalog. A server
// that cannot be reached contributes no tools and a logged warning; nothing here throws to the catalog.
// The MCP client (the SDK and its dependencies, several MB of heap) is loaded only when a server is
// configured: a service without MCP servers never imports it.
import type { Clock } from '../../platform/clock/index.js';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { Tool } from '../tool.js';
import type { McpLog } from './mcp-log.js';
import type { McpServerConnection } from './mcp-server-connection.js';

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

/** Told each fresh listing of a server's tools. */
export type McpListingListener = (server: string, tools: readonly Tool[]) => void;

export class McpServerManager {
  /** Each server's connection, made once the client module has loaded (at construction, when there is a server). */
  readonly #connections = new Map<string, Promise<McpServerConnection>>();
  readonly #log: McpLog;
  readonly #listeners = new Set<McpListingListener>();

  constructor(servers: Readonly<Record<string, McpServerConfig>>, options: McpServerManagerOptions) {
    this.#log = options.log;
    const usable = Object.entries(servers).filter(([name]) => {
      if (SERVER_NAME.test(name)) return true;
      options.log.warn({ server: name.slice(0, 100) }, 'MCP server ignored: its name cannot form tool names');
      return false;
    });
    if (usable.length === 0) return;
    const client = import('./mcp-server-connection.js');
    for (const [name, config] of usable) {
      const connection = client.then(({ McpServerConnection }) => new McpServerConnection({ name, config, ...options, onListed: (tools) => this.#listed(name, tools) }));
      // Awaited by every use; a module that failed to load must not also be an unhandled rejection now.
      connection.catch(() => undefined);
      this.#connections.set(name, connection);
    }
  }

  servers(): string[] {
    return [...this.#connections.keys()];
  }

  async toolsOf(server: string, signal?: AbortSignal): Promise<Tool[]> {
    return (await this.listing(server, signal)) ?? [];
  }

  /** The server's tools, or undefined when it is not configured or could not list them (logged). */
  async listing(server: string, signal?: AbortSignal): Promise<Tool[] | undefined> {
    const connection = this.#connections.get(server);
    if (connection === undefined) return undefined;
    try {
      return await (await connection).listTools(signal);
    } catch (error) {
      // A caller that gave up is not a server fault: no warning, still no throw.
      if (signal?.aborted !== true) this.#log.warn({ server, err: error }, 'MCP server unavailable; its tools are not offered');
      return undefined;
    }
  }

  /** Calls `listener` with every listing fetched from a server from now on (cached answers are not listings). */
  onListed(listener: McpListingListener): void {
    this.#listeners.add(listener);
  }

  #listed(server: string, tools: readonly Tool[]): void {
    for (const listener of this.#listeners) {
      try {
        listener(server, tools);
      } catch (error) {
        this.#log.warn({ server, err: error }, 'a listener of MCP tool listings failed');
      }
    }
  }

  async allTools(signal?: AbortSignal): Promise<Tool[]> {
    const perServer = await Promise.all(this.servers().map((server) => this.toolsOf(server, signal)));
    return perServer.flat();
  }

  /** Per configured server, whether it is connected (connecting it if need be) and on which revision; readiness and the start-up banner. */
  async status(signal?: AbortSignal): Promise<Record<string, McpServerStatus>> {
    const entries = await Promise.all(
      [...this.#connections].map(async ([name, loading]): Promise<[string, McpServerStatus]> => {
        const connection = await loading.catch(() => undefined);
        const connected = connection !== undefined && (await connection.reachable(signal));
        const protocolVersion = connected ? connection?.protocolVersion : undefined;
        return [name, protocolVersion === undefined ? { connected } : { connected, protocolVersion }];
      }),
    );
    return Object.fromEntries(entries);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#connections.values()].map(async (connection) => (await connection).close()));
  }
}
