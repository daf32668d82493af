// The MCP server one gateway request is answered by: the official package's low-level `Server`
// (our tools bring JSON Schemas, and their arguments are checked by the governed call, not before it),
// made afresh for each request and its caller. `tools/list` is the caller's catalog (the tools direct
// invocation offers), `tools/call` a direct invocation. Its protocol revisions are DESIGN.md §15's.
// A handler that throws anything but a protocol error answers a bare internal error: exception text
// stays in the log.
import { ProtocolError, ProtocolErrorCode, Server, type Tool as McpTool } from '@modelcontextprotocol/server';
import type { CatalogService, InvokeDependencies } from '../tools/index.js';
import { packageInfo } from '../platform/package-info/index.js';
import type { Caller } from './caller.js';
import { callTool } from './call-tool.js';
import { toMcpTool } from './to-mcp-tool.js';

/** 2026-07-28 stateless; 2025-11-25 and 2025-06-18 for older clients (an older initialize is answered with 2025-11-25). */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'];

const INSTRUCTIONS =
  'The tools your Portcullis envelope grants. Each takes { "operation": <one of its operations>, "parameters": { … } }; the description lists each operation and its parameters schema.';

export interface GatewayServerDependencies {
  readonly catalog: CatalogService;
  readonly invoke: InvokeDependencies;
  readonly log: { error(object: object, message: string): void };
}

export function createGatewayServer(caller: Caller, deps: GatewayServerDependencies): Server {
  const server = new Server(
    { name: 'portcullis', version: packageInfo().version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, supportedProtocolVersions: MCP_PROTOCOL_VERSIONS },
  );
  const guarded = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      if (error instanceof ProtocolError) throw error;
      deps.log.error({ err: error, reqId: caller.requestId }, 'MCP gateway request failed');
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
    });
  server.setRequestHandler('tools/list', () => guarded(async () => ({ tools: await listTools(deps.catalog, caller) })));
  server.setRequestHandler('tools/call', (request, context) =>
    guarded(() => callTool(deps.invoke, caller, request.params.name, request.params.arguments, context.mcpReq.signal)),
  );
  return server;
}

/** The catalog's tools that direct invocation offers (a tool it never offers would fail every call). */
async function listTools(catalog: CatalogService, caller: Caller): Promise<McpTool[]> {
  const tools = await catalog.granted(caller.principal);
  return tools.filter((tool) => tool.descriptor.isDirectlyInvocable).flatMap((tool) => toMcpTool(tool) ?? []);
}
