// The tool catalog without HTTP: the tools the caller's envelope grants (GET /api/tools) and one of
// them described (GET /api/tools/{name}; not granted ≡ nonexistent). The envelope comes from the
// access policy; only granted MCP servers are contacted.
import type { AccessPolicy } from '../platform/access/index.js';
import type { Principal } from '../platform/auth/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { toCatalogEntry, toDescription } from './catalog-entry.js';
import { TOOL_NOT_FOUND_DETAIL } from './invoke-service.js';
import type { ToolRegistry } from './registry.js';
import type { Tool } from './tool.js';

/** How long a catalog read waits for MCP servers. */
const CATALOG_TIMEOUT_MS = 10_000;

export class CatalogService {
  readonly #registry: ToolRegistry;
  readonly #access: AccessPolicy;

  constructor(options: { readonly registry: ToolRegistry; readonly access: AccessPolicy }) {
    this.#registry = options.registry;
    this.#access = options.access;
  }

  async list(principal: Principal): Promise<{ tools: ReturnType<typeof toCatalogEntry>[] }> {
    return { tools: (await this.granted(principal)).map(toCatalogEntry) };
  }

  /** The tools the caller's envelope grants, ordered by name (the catalog's entries, and the MCP gateway's tools/list). */
  granted(principal: Principal): Promise<readonly Tool[]> {
    const envelope = this.#access.authorize(principal, 'tools.read');
    return this.#registry.granted(envelope, AbortSignal.timeout(CATALOG_TIMEOUT_MS));
  }

  async describe(principal: Principal, name: string): Promise<ReturnType<typeof toDescription>> {
    const envelope = this.#access.authorize(principal, 'tools.read');
    const tool = await this.#registry.findGranted(envelope, name, AbortSignal.timeout(CATALOG_TIMEOUT_MS));
    if (tool === undefined) throw new ProblemError('not-found', TOOL_NOT_FOUND_DETAIL);
    return toDescription(tool);
  }
}
