// One configured MCP server as a source of catalog tools: connects lazily, lists its tools (paginated,
// cached until the server says the list changed or the connection is replaced) and calls them with a
// per-call deadline. A transport that closes or errors marks the connection dead; the next list or
// call reconnects, paced by ReconnectBackoff. Failures come back as data or as a rejected listing,
// never as a crash of the host.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock, type Clock } from '../../platform/clock/index.js';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { Tool, ToolCallContext, ToolResult } from '../tool.js';
import { callFailureMessage } from './call-failure-message.js';
import { collectPages } from './collect-pages.js';
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
export const MCP_MAX_LIST_PAGES = 50;
const TERMINATE_SESSION_GRACE_MS = 2_000;

export interface McpServerOptions {
  readonly name: string;
  readonly config: McpServerConfig;
  /** Default deadline of one `tools/call`, handed to the SDK (never its 60 s default). */
  readonly callTimeoutMs: number;
  /** Deadline of the initialize handshake and of each `tools/list` page. */
  readonly connectTimeoutMs?: number;
  readonly annotationOverrides?: McpAnnotationOverrides;
  readonly log: McpLog;
  readonly clock?: Clock;
  /** What Streamable HTTP sends through (tracing adds the trace context); global fetch by default. */
  readonly fetch?: typeof globalThis.fetch;
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
    const { items, truncated } = await collectPages(async (cursor) => {
      const page = await session.client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.#connectTimeoutMs });
      return { items: page.tools, nextCursor: page.nextCursor };
    }, MCP_MAX_LIST_PAGES);
    if (truncated) this.#options.log.warn({ server: this.name, tools: items.length }, 'MCP tool listing cut at the page bound');
    const overrides = this.#options.annotationOverrides;
    const tools = selectCallableTools(this.name, items, this.#options.log).map((definition) =>
      createMcpTool(mcpToolDescriptor(this.name, definition, overrides), definition.name, (tool, parameters, context) =>
        this.#call(tool, parameters, context),
      ),
    );
    // A change notified while listing leaves this result uncached: the next listing fetches again.
    if (generation === this.#generation && session === this.#session) this.#cache = { generation, tools };
    return tools;
  }

  async #call(tool: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult> {
    try {
      const session = await this.#ensureSession(context.signal);
      const result = await session.client.callTool({ name: tool, arguments: { ...parameters } }, undefined, {
        signal: context.signal,
        timeout: this.#options.callTimeoutMs,
      });
      return toolResultFromMcp(result as CallToolResult);
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
    let session: Session | undefined;
    try {
      const transport = createMcpTransport(this.name, this.#options.config, this.#options.log, this.#options.fetch);
      const client = new Client(MCP_CLIENT_INFO, { capabilities: {} });
      const created: Session = { client, transport, dead: false };
      session = created;
      // Set before connect: the client wraps these, so they see transport events only.
      transport.onclose = () => this.#lost(created, undefined);
      transport.onerror = (error) => this.#lost(created, error);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (created === this.#session) this.#generation += 1;
      });
      await client.connect(transport, { timeout: this.#connectTimeoutMs });
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
    this.#session = session;
    this.#generation += 1;
    this.#options.log.info?.({ server: this.name }, 'MCP server connected');
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
