// Streamable HTTP serving from the official MCP server package, Web Request in, Response out: the
// 2026-07-28 revision through `createMcpHandler` (per-request, stateless), and 2025-era traffic routed by
// the package's own `isLegacyRequest` to its stateless streamable transport (no session id: any instance
// answers any request). Every answer is one JSON body — the legacy transport in JSON mode, the modern one
// because no handler sends anything before its result — and `subscriptions/listen` is refused at once
// (the gateway publishes no change events), so no exchange outlives its result. Each request gets a
// fresh server for its caller. Batches never reach here (the route refuses them).
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { Caller } from './caller.js';

export class GatewayHttpHandler {
  readonly #serverFor: (caller: Caller) => Server;
  /** The caller of each modern request in flight, for the handler's factory (which sees only the request). */
  readonly #callers = new WeakMap<Request, Caller>();
  readonly #modern: McpHttpHandler;

  constructor(serverFor: (caller: Caller) => Server, onerror: (error: Error) => void) {
    this.#serverFor = serverFor;
    this.#modern = createMcpHandler(
      ({ requestInfo }) => {
        const caller = requestInfo === undefined ? undefined : this.#callers.get(requestInfo);
        if (caller === undefined) throw new Error('a modern MCP request reached the factory without its caller');
        return this.#serverFor(caller);
      },
      { legacy: 'reject', maxSubscriptions: 0, onerror },
    );
  }

  /** The answer to one POST whose JSON body (one message, already parsed) is `body`. */
  async handle(request: Request, body: unknown, caller: Caller): Promise<Response> {
    if (await isLegacyRequest(request, body)) return this.#legacy(request, body, caller);
    this.#callers.set(request, caller);
    return this.#modern.fetch(request, { parsedBody: body });
  }

  /** Aborts modern exchanges in flight (the legacy ones end with their requests). */
  close(): Promise<void> {
    return this.#modern.close();
  }

  async #legacy(request: Request, body: unknown, caller: Caller): Promise<Response> {
    const server = this.#serverFor(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // Closing the server aborts its handlers' signals: a client that goes away cancels its call.
    const close = (): void => void server.close().catch(() => undefined);
    request.signal.addEventListener('abort', close, { once: true });
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      request.signal.removeEventListener('abort', close);
      close();
    }
  }
}
