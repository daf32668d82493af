// One configured MCP server as a source of catalog tools: connects lazily, lists its tools (paginated,
// cached until the server says the list changed or the connection is replaced) and calls them with a
// per-call deadline. A transport that closes or errors marks the connection dead; the next list or
// call reconnects, paced by ReconnectBackoff. Failures come back as data or as a rejected listing,
// never as a crash of the host.
//
// Protocol revision: each connect lets the SDK client negotiate (`versionNegotiation: 'auto'`): a
// `server/discover` probe selects 2026-07-28 (stateless, the revision in every request's `_meta` and
// `MCP-Protocol-Version` header) when the server offers it, and anything else falls back to the
// 2025 `initialize` handshake (2025-11-25, or an older revision the server counter-offers). Decision 1502.
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock, type Clock } from '../../platform/clock/index.js';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { Tool, ToolCallContext, ToolResult } from '../tool.js';
import { callFailureMessage } from './call-failure-message.js';
import { createMcpTool } from './create-mcp-tool.js';
import { createMcpTransport } from './create-mcp-transport.js';
import type { McpLog } from './mcp-log.js';
import { mcpToolDescriptor, type McpAnnotationOverrides } from './mcp-tool-descriptor.js';
import { untilAborted as raceSignal } from '../../platform/abort/index.js';
import { ReconnectBackoff } from './reconnect-backoff.js';
import { selectCallableTools } from './select-callable-tools.js';
import { toolResultFromMcp } from './tool-result-from-mcp.js';

export const MCP_CLIENT_INFO = Object.freeze({ name: 'portcullis', version: '2.0.0' });
export const MCP_DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Pages of one `tools/list` walk; a server still paging beyond it is not listed (the SDK's cap). */
export const MCP_MAX_LIST_PAGES = 50;
/**
 * Bound on the stdio version probe. A stdio server that never answers `server/discover` is a legacy
 * server (the SDK then falls back to `initialize`), so waiting the whole connect deadline for it would
 * only delay every connect; a slow modern server misjudged by it is still served on 2025-11-25.
 */
export const MCP_STDIO_PROBE_TIMEOUT_MS = 3_000;
const TERMINATE_SESSION_GRACE_MS = 2_000;

export interface McpServerOptions {
  readonly name: string;
  readonly config: McpServerConfig;
  /** Default deadline of one `tools/call`, handed to the SDK (never its 60 s default). */
  readonly callTimeoutMs: number;
  /** Deadline of the version probe (stdio: at most MCP_STDIO_PROBE_TIMEOUT_MS), of the initialize handshake and of each `tools/list` page. */
  readonly connectTimeoutMs?: number;
  readonly annotationOverrides?: McpAnnotationOverrides;
  readonly log: McpLog;
  readonly clock?: Clock;
  /** What Streamable HTTP sends through (tracing adds the trace context); global fetch by default. */
  readonly fetch?: typeof globalThis.fetch;
  /** Told each listing fetched from the server (not a cached one): the policy layer validates against it. */
  readonly onListed?: (tools: readonly Tool[]) => void;
}

interface Session {
  readonly client: Client;
  readonly transport: Transport;
  dead: boolean;
}

export class McpServerConnection {
  readonly name: string;
  readonly #options: McpServerOptions;
  readonly #connectTimeoutMs: number;
  readonly #backoff: ReconnectBackoff;
  #session: Session | undefined;
  #connecting: Promise<Session> | undefined;
  #listing: Promise<Tool[]> | undefined;
  #cache: { readonly generation: number; readonly tools: readonly Tool[] } | undefined;
  /** Bumped by a new session and by `tools/list_changed`; a cached listing of an older one is stale. */
  #generation = 0;
  #closed = false;
  /**
   * A stdio server found legacy is reconnected with the `initialize` handshake straight away: its probe
   * costs a spawn (and up to the probe bound for a server that stays silent), and the command is the same.
   */
  #stdioLegacy = false;

  constructor(options: McpServerOptions) {
    assertPositive('callTimeoutMs', options.callTimeoutMs);
    if (options.connectTimeoutMs !== undefined) assertPositive('connectTimeoutMs', options.connectTimeoutMs);
    this.name = options.name;
    this.#options = options;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? MCP_DEFAULT_CONNECT_TIMEOUT_MS;
    this.#backoff = new ReconnectBackoff(options.clock ?? systemClock);
  }

  /** Rejects when the server cannot be reached or listed; the manager turns that into no tools. */
  async listTools(signal?: AbortSignal): Promise<Tool[]> {
    const cache = this.#cache;
    if (cache !== undefined && cache.generation === this.#generation && this.#session !== undefined) {
      return [...cache.tools];
    }
    this.#listing ??= this.#list().finally(() => {
      this.#listing = undefined;
    });
    return [...(await raceSignal(this.#listing, signal))];
  }

  /**
   * Whether the server is connected, connecting now if it is not (paced by the reconnect backoff, so
   * a server that keeps failing is not dialled on every probe). Never throws or logs a failure.
   */
  async reachable(signal?: AbortSignal): Promise<boolean> {
    if (this.#session !== undefined && !this.#session.dead) return true;
    try {
      await this.#ensureSession(signal);
      return true;
    } catch {
      return false;
    }
  }

  /** The protocol revision the live session negotiated (`2026-07-28`, `2025-11-25`, …); undefined while not connected. */
  get protocolVersion(): string | undefined {
    const session = this.#session;
    return session === undefined || session.dead ? undefined : session.client.getNegotiatedProtocolVersion();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const session = this.#session ?? (await this.#connecting?.catch(() => undefined));
    this.#session = undefined;
    this.#cache = undefined;
    if (session === undefined) return;
    session.dead = true;
    if (session.transport instanceof StreamableHTTPClientTransport) {
      // Ends the server-side session politely; a server that does not answer does not hold up shutdown.
      await Promise.race([session.transport.terminateSession().catch(() => undefined), sleep(TERMINATE_SESSION_GRACE_MS, undefined, { ref: false })]);
    }
    await session.client.close().catch(() => undefined);
  }

  async #list(): Promise<Tool[]> {
    const session = await this.#ensureSession();
    const generation = this.#generation;
    // The SDK walks every page (bounded by listMaxPages; each page within the deadline) and keeps the
    // listing for callTool's output-schema check and, on 2026-07-28 over HTTP, its header mirroring.
    const { tools: items } = await session.client.listTools(undefined, { timeout: this.#connectTimeoutMs, cacheMode: 'refresh' });
    const overrides = this.#options.annotationOverrides;
    const tools = selectCallableTools(this.name, items, this.#options.log).map((definition) =>
      createMcpTool(mcpToolDescriptor(this.name, definition, overrides), definition.name, (tool, parameters, context) =>
        this.#call(tool, parameters, context),
      ),
    );
    // A change notified while listing leaves this result uncached: the next listing fetches again.
    if (generation === this.#generation && session === this.#session) this.#cache = { generation, tools };
    this.#options.onListed?.(tools);
    return tools;
  }

  async #call(tool: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult> {
    try {
      const session = await this.#ensureSession(context.signal);
      const result = await session.client.callTool({ name: tool, arguments: { ...parameters } }, { signal: context.signal, timeout: this.#options.callTimeoutMs });
      return toolResultFromMcp(result);
    } catch (error) {
      this.#options.log.warn({ server: this.name, tool, err: error }, 'MCP tool call failed');
      return { ok: false, error: callFailureMessage(error, context.signal) };
    }
  }

  #ensureSession(signal?: AbortSignal): Promise<Session> {
    if (this.#closed) return Promise.reject(new Error(`MCP server ${this.name} is closed.`));
    if (this.#session !== undefined) return Promise.resolve(this.#session);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return raceSignal(this.#connecting, signal);
  }

  /** Shared by every caller waiting for the connection, so it takes no caller's signal. */
  async #connect(): Promise<Session> {
    const plan = this.#backoff.plan();
    if (plan.kind === 'refuse') throw plan.error;
    if (plan.kind === 'wait') await sleep(plan.ms, undefined, { ref: false });
    if (this.#closed) throw new Error(`MCP server ${this.name} is closed.`);
    const stdio = this.#options.config.transport === 'stdio';
    let session: Session | undefined;
    try {
      const transport = createMcpTransport(this.name, this.#options.config, this.#options.log, this.#options.fetch);
      const client = new Client(MCP_CLIENT_INFO, {
        capabilities: {},
        // Over HTTP the probe has the connect deadline (silence there is an outage, not a legacy server).
        versionNegotiation: { mode: 'auto', ...(stdio ? { probe: { timeoutMs: Math.min(MCP_STDIO_PROBE_TIMEOUT_MS, this.#connectTimeoutMs) } } : {}) },
        listMaxPages: MCP_MAX_LIST_PAGES,
        // 2025: the server's notification; 2026-07-28: the SDK opens a `subscriptions/listen` for it.
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              this.#generation += 1;
            },
          },
        },
      });
      const created: Session = { client, transport, dead: false };
      session = created;
      // Set before connect: the client wraps these, so they see transport events only. An error while
      // connecting (a legacy HTTP server refusing the version probe) is the connect's to report.
      transport.onclose = () => this.#lost(created, undefined);
      transport.onerror = (error) => {
        if (created === this.#session) this.#lost(created, error);
      };
      await client.connect(transport, { timeout: this.#connectTimeoutMs, ...(this.#stdioLegacy ? { prior: { kind: 'legacy' as const } } : {}) });
      if (created.dead) throw new Error(`MCP server ${this.name} closed while connecting.`);
    } catch (error) {
      this.#backoff.failed(error);
      if (session !== undefined) {
        session.dead = true;
        await session.client.close().catch(() => undefined);
      }
      throw error;
    }
    this.#backoff.succeeded();
    if (this.#closed) {
      await session.client.close().catch(() => undefined);
      throw new Error(`MCP server ${this.name} is closed.`);
    }
    const current = session;
    this.#session = current;
    this.#generation += 1;
    // On 2026-07-28 change notifications arrive on that subscription only: once it ends, changes
    // would go unheard, so the connection is renewed on next use like a closed one.
    void current.client.autoOpenedSubscription?.closed.then((how) => {
      if (how !== 'local') this.#lost(current, new Error(`the server ended the tools/list_changed subscription (${how})`));
    });
    const protocolVersion = current.client.getNegotiatedProtocolVersion();
    if (stdio && current.client.getProtocolEra() === 'legacy') this.#stdioLegacy = true;
    this.#options.log.info?.({ server: this.name, transport: this.#options.config.transport, protocolVersion }, 'MCP server connected');
    return session;
  }

  #lost(session: Session, error: Error | undefined): void {
    const wasCurrent = session === this.#session;
    session.dead = true;
    if (!wasCurrent) return;
    this.#session = undefined;
    this.#options.log.warn(
      { server: this.name, err: error },
      error === undefined ? 'MCP server connection closed; reconnecting on next use' : 'MCP server transport failed; reconnecting on next use',
    );
    // Rejects calls still waiting on this session and stops a child that is still running.
    void session.client.close().catch(() => undefined);
  }
}

function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`McpServerConnection: ${name} must be a positive number of milliseconds.`);
}
