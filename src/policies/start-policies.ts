// Starts the policy layer from AppConfig:AI:Policies (DESIGN.md §18): nothing without files; else the
// set validated against the catalog — the built-in tools and the MCP servers' tools listed within
// MCP_LIST_MS — and a PolicyLoadError naming every problem when it is invalid (the service then
// refuses to start). A server that has not listed by then is awaited: the layer hears its listings.
import type { Clock } from '../platform/clock/index.js';
import type { PoliciesConfig } from '../platform/config/index.js';
import type { Storage } from '../platform/storage/index.js';
import type { ToolCatalog, ToolRegistry } from '../tools/registry.js';
import { RunCallCounts } from '../tools/run-call-counts.js';
import { PolicyLayer } from './policy-layer.js';

/** How long start-up (and a reload) waits for the MCP servers to list their tools. */
const MCP_LIST_MS = 10_000;

export async function startPolicies(
  config: PoliciesConfig,
  deps: { readonly registry: ToolRegistry; readonly storage: Storage; readonly clock: Clock; readonly log: { info(details: object, message: string): void; warn(details: object, message: string): void } },
): Promise<PolicyLayer | undefined> {
  if (config.files.length === 0) return undefined;
  const { storage, clock, log } = deps;
  const layer = await PolicyLayer.load(
    { files: config.files, cwd: process.cwd(), mode: config.mode, counts: new RunCallCounts(storage.spend, () => storage.clock.now()), now: () => clock.now(), log },
    await policyCatalog(deps.registry),
  );
  deps.registry.onMcpListed((server, tools) => layer.listed(server, tools));
  return layer;
}

/** The tools policies are validated against: every tool the host offers, MCP servers' as far as they list in time. */
export async function policyCatalog(registry: ToolRegistry): Promise<ToolCatalog> {
  return registry.catalog(AbortSignal.timeout(MCP_LIST_MS));
}
