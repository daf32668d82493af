// The catalog `portcullis policy …` checks policies against: the built-in tools, read from their
// descriptors (nothing is built), and with --config the tools of the MCP servers that configuration
// names, listed through McpServerManager exactly as `serve` lists them, and closed before returning.
// A server that cannot be reached contributes no tools, and a warning says so.
import { loadConfig } from '../../platform/config/index.js';
import type { PolicyTool } from '../../policies/index.js';
import { builtinToolDescriptors } from '../../tools/builtin/index.js';
import { McpServerManager } from '../../tools/mcp/index.js';
import type { CommandIo } from '../cli-io.js';

export type PolicyCatalog = { readonly ok: true; readonly tools: readonly PolicyTool[] } | { readonly ok: false; readonly problems: readonly string[] };

export async function policyCatalog(configFiles: readonly string[], io: CommandIo): Promise<PolicyCatalog> {
  const builtins = builtinToolDescriptors.map((descriptor) => ({ descriptor, server: '' }));
  if (configFiles.length === 0) return { ok: true, tools: builtins };
  const loaded = loadConfig({ cwd: io.cwd, env: io.env, configFiles, rules: 'mcp-servers' });
  if (!loaded.ok) return { ok: false, problems: loaded.problems };
  for (const warning of loaded.warnings) io.stderr(`warning: ${warning}`);
  const log = { warn: (details: object, message: string) => io.stderr(`warning: ${message}${detailOf(details)}`) };
  const manager = new McpServerManager(loaded.config.mcpServers, { callTimeoutMs: loaded.config.directToolInvocation.defaultTimeoutSeconds * 1000, log });
  try {
    const listed = await Promise.all(manager.servers().map(async (server) => (await manager.toolsOf(server, io.signal)).map((tool) => ({ descriptor: tool.descriptor, server }))));
    return { ok: true, tools: [...builtins, ...listed.flat()] };
  } finally {
    await manager.close();
  }
}

function detailOf(details: object): string {
  const { server, err } = details as { server?: unknown; err?: unknown };
  const cause = err instanceof Error ? `: ${err.message}` : '';
  return typeof server === 'string' ? ` (server ${server}${cause})` : cause;
}
