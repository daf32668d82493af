// The host's tool registry: built-in tools plus the tools of configured MCP servers. Lookups are
// case-insensitive. Tools the host knows but cannot construct (the UI-surface tools) are never
// registered, so they are absent from the catalog and answer 404 like any unknown name.
import { decideTool, parseMcpToolName, type EffectiveEnvelope, type ResolvedEnvelope } from '../platform/envelope/index.js';
import type { Tool } from './tool.js';

/** Known to the host family, not constructible here: never listed, never invocable. */
export const UNCONSTRUCTIBLE_TOOLS: readonly string[] = ['dashboard_control', 'render_chart', 'render_table'];

/** The MCP side of the registry (implemented by McpServerManager). */
export interface McpToolSource {
  servers(): string[];
  toolsOf(server: string, signal?: AbortSignal): Promise<Tool[]>;
  /** The server's tools, or undefined when it could not list them. */
  listing(server: string, signal?: AbortSignal): Promise<Tool[] | undefined>;
  /** Tells `listener` of every listing fetched from a server from now on. */
  onListed(listener: (server: string, tools: readonly Tool[]) => void): void;
  close(): Promise<void>;
}

/** Every tool the host offers, and the configured MCP servers that could not list theirs. */
export interface ToolCatalog {
  readonly tools: readonly Tool[];
  readonly unlisted: readonly string[];
}

type Envelope = ResolvedEnvelope | EffectiveEnvelope;

function grantedServers(envelope: Envelope): readonly string[] {
  return 'grant' in envelope ? envelope.grant.allowedMcpServers : envelope.allowedMcpServers;
}

function byName(a: Tool, b: Tool): number {
  const x = a.descriptor.name.toLowerCase();
  const y = b.descriptor.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export class ToolRegistry {
  readonly #builtins = new Map<string, Tool>();
  readonly #mcp: McpToolSource | null;

  constructor(builtins: readonly Tool[], mcp: McpToolSource | null = null) {
    for (const tool of builtins) {
      const key = tool.descriptor.name.toLowerCase();
      if (this.#builtins.has(key)) throw new Error(`duplicate tool name '${tool.descriptor.name}'`);
      if (UNCONSTRUCTIBLE_TOOLS.includes(key)) throw new Error(`'${key}' cannot be constructed by this host`);
      this.#builtins.set(key, tool);
    }
    this.#mcp = mcp;
  }

  /** Every tool the host offers, ordered by name (contacts every configured MCP server). */
  async all(signal?: AbortSignal): Promise<Tool[]> {
    const mcpTools = this.#mcp ? (await Promise.all(this.#mcp.servers().map((s) => this.#mcp!.toolsOf(s, signal)))).flat() : [];
    return [...this.#builtins.values(), ...mcpTools].sort(byName);
  }

  /** Every tool the host offers, ordered by name, and which MCP servers could not list theirs (the policy schema's catalog). */
  async catalog(signal?: AbortSignal): Promise<ToolCatalog> {
    const servers = this.#mcp?.servers() ?? [];
    const listings = await Promise.all(servers.map((server) => this.#mcp!.listing(server, signal)));
    const unlisted = servers.filter((_, i) => listings[i] === undefined);
    return { tools: [...this.#builtins.values(), ...listings.flatMap((tools) => tools ?? [])].sort(byName), unlisted };
  }

  /** Tells `listener` of every listing fetched from an MCP server from now on. */
  onMcpListed(listener: (server: string, tools: readonly Tool[]) => void): void {
    this.#mcp?.onListed(listener);
  }

  /** The catalog for an envelope: only granted tools; only granted MCP servers are contacted. */
  async granted(envelope: Envelope, signal?: AbortSignal): Promise<Tool[]> {
    const servers = new Set(grantedServers(envelope).map((s) => s.toLowerCase()));
    const mcpTools = this.#mcp
      ? (
          await Promise.all(
            this.#mcp.servers().filter((s) => servers.has(s.toLowerCase())).map((s) => this.#mcp!.toolsOf(s, signal)),
          )
        ).flat()
      : [];
    return [...this.#builtins.values(), ...mcpTools]
      .filter((tool) => decideTool(envelope, tool.descriptor.name).allowed)
      .sort(byName);
  }

  /**
   * A host tool by case-insensitive name without contacting any MCP server (definition checks): the
   * built-in tool, `'mcp'` for a name under a configured MCP server (its tools are known only once
   * the server answers), or undefined when this host offers no such tool.
   */
  lookupOffline(name: string): Tool | 'mcp' | undefined {
    const builtin = this.#builtins.get(name.toLowerCase());
    if (builtin) return builtin;
    const mcp = parseMcpToolName(name);
    if (mcp === null || !this.#mcp) return undefined;
    return this.#mcp.servers().some((s) => s.toLowerCase() === mcp.server.toLowerCase()) ? 'mcp' : undefined;
  }

  /** The built-in tools' names, ordered (for suggestions). */
  builtinNames(): string[] {
    return [...this.#builtins.values()].map((tool) => tool.descriptor.name).sort();
  }

  /** A granted built-in tool by case-insensitive name, at once; undefined for anything else (MCP tools: findGranted). */
  grantedBuiltin(envelope: Envelope, name: string): Tool | undefined {
    const builtin = this.#builtins.get(name.toLowerCase());
    return builtin !== undefined && decideTool(envelope, name).allowed ? builtin : undefined;
  }

  /** A granted tool by case-insensitive name, or undefined (not granted ≡ nonexistent). */
  async findGranted(envelope: Envelope, name: string, signal?: AbortSignal): Promise<Tool | undefined> {
    if (!decideTool(envelope, name).allowed) return undefined;
    const key = name.toLowerCase();
    const builtin = this.#builtins.get(key);
    if (builtin) return builtin;
    const mcp = parseMcpToolName(name);
    if (!mcp || !this.#mcp) return undefined;
    const server = this.#mcp.servers().find((s) => s.toLowerCase() === mcp.server.toLowerCase());
    if (server === undefined) return undefined;
    const tools = await this.#mcp.toolsOf(server, signal);
    return tools.find((tool) => tool.descriptor.name.toLowerCase() === key);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#builtins.values()].map((tool) => tool.close?.() ?? Promise.resolve()));
    await this.#mcp?.close();
  }
}
