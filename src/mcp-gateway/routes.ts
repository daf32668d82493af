// HTTP edge of the MCP gateway (DESIGN.md §15): POST /mcp and the RFC 9728 metadata documents. /mcp is
// authenticated by the platform's bearer hook (a 401 names the metadata document), charged against
// `tools-invoke` for a tools/call and `tools-read` for anything else, bounded by direct invocation's
// MaxRequestBytes (413), and refuses JSON-RPC batches (none of its protocol revisions has them) before
// any message is read. Everything else is the MCP package's. /mcp is left out of the OpenAPI document:
// its messages and errors are JSON-RPC's, specified by MCP, not problem documents.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parserRefusalResponse, principalOf, requestOrigin, type App } from '../platform/http/index.js';
import type { AuthConfig, RateLimitPolicy } from '../platform/config/types.js';
import type { CatalogService, InvokeDependencies } from '../tools/index.js';
import { createGatewayServer } from './gateway-server.js';
import { GatewayHttpHandler } from './mcp-http-handler.js';
import { MCP_PATH, PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from './protected-resource.js';
import { ProtectedResourceMetadataSchema, type ProtectedResourceMetadata } from './schemas.js';
import { sendWebResponse, toWebRequest } from './web-exchange.js';

export interface McpGatewayOptions {
  readonly catalog: CatalogService;
  /** Direct invocation's dependencies: the same slots, limits and governed calls as POST …/invoke. */
  readonly invoke: InvokeDependencies;
  readonly auth: AuthConfig;
  readonly log: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/** How long a written answer may take to reach a client that stopped reading before the connection is dropped. */
export const DRAIN_DEADLINE_MS = 10_000;

const BATCH_REFUSED = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'JSON-RPC batches are not supported: send one message per request.' },
});

function policyOf(body: unknown): RateLimitPolicy {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call' ? 'tools-invoke' : 'tools-read';
}

const metadataUrl = (request: FastifyRequest): string => `${requestOrigin(request)}${PROTECTED_RESOURCE_PATH}`;

export function registerMcpGateway(app: App, options: McpGatewayOptions): { close(): Promise<void> } {
  const handler = new GatewayHttpHandler(
    (caller) => createGatewayServer(caller, { catalog: options.catalog, invoke: options.invoke, log: options.log }),
    // Requests the package refused (a client's mistake, answered as JSON-RPC errors): worth a line, not an alarm.
    (error) => options.log.info({ reason: error.message }, 'MCP request refused'),
  );

  app.post(
    MCP_PATH,
    {
      bodyLimit: options.invoke.config.maxRequestBytes,
      config: { bearer: true, resourceMetadata: metadataUrl, rateLimitByBody: policyOf, oversizeStatus: 413 },
      schema: { hide: true },
    },
    async (request, reply) => {
      if (Array.isArray(request.body)) return reply.code(400).type('application/json').send(BATCH_REFUSED);
      const caller = { principal: principalOf(request), requestId: request.id };
      const response = await handler.handle(toWebRequest(request, reply), request.body, caller);
      return sendWebResponse(reply, response, DRAIN_DEADLINE_MS);
    },
  );

  const metadata = async (request: FastifyRequest, reply: FastifyReply): Promise<ProtectedResourceMetadata> => {
    // Public and credential-free: browser-based MCP clients read it cross-origin.
    void reply.header('access-control-allow-origin', '*');
    return protectedResourceMetadata(requestOrigin(request), options.auth);
  };
  app.get(
    PROTECTED_RESOURCE_PATH,
    {
      schema: {
        operationId: 'getMcpProtectedResourceMetadata',
        security: [],
        summary: 'The MCP gateway’s OAuth protected-resource metadata (RFC 9728): where an MCP client signs in for /mcp.',
        tags: ['Tools'],
        response: { 200: ProtectedResourceMetadataSchema, ...parserRefusalResponse },
      },
    },
    metadata,
  );
  // The path-suffixed form (RFC 9728 §3.1) that MCP clients probe when a 401 named no document.
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, { schema: { hide: true, response: { 200: ProtectedResourceMetadataSchema } } }, metadata);

  return { close: () => handler.close() };
}
