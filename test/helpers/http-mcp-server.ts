// A real MCP server over Streamable HTTP on loopback with a tool `echo` (more with addTool), speaking
// one of two generations: `modern` is the v2 server package's handler (2026-07-28 stateless, plus the
// stateless 2025 fallback it gives older clients), `legacy` the v1 SDK's stateless transport (2025
// revisions only; it answers `server/discover` with method-not-found). Records every request's
// headers and JSON-RPC method, so tests can see what the client sent (traceparent, the revision header,
// whether it ran `initialize`).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as LegacyMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpServer, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface HttpMcpServerOptions {
  /** Default `legacy`. */
  readonly speaks?: 'modern' | 'legacy';
  /** A port to listen on (a restart on the port of a stopped server); a free one by default. */
  readonly port?: number;
}

export interface HttpMcpServer {
  readonly url: string;
  readonly port: number;
  readonly headers: IncomingHttpHeaders[];
  /** The JSON-RPC method of each POST in arrival order (`(response)` for a posted response). */
  readonly methods: string[];
  /** Adds a tool that echoes like `echo`; a `modern` server announces it to `subscriptions/listen` streams. */
  addTool(name: string): void;
  close(): Promise<void>;
}

const TOOL = { description: 'Echoes its text.', annotations: { readOnlyHint: true } };

export async function startHttpMcpServer(options: HttpMcpServerOptions = {}): Promise<HttpMcpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const methods: string[] = [];
  const tools = ['echo'];
  const modern =
    options.speaks === 'modern'
      ? createMcpHandler(() => {
          const server = new McpServer({ name: 'echo-server', version: '2.0.0' }, { capabilities: { tools: { listChanged: true } } });
          for (const name of tools) server.registerTool(name, { ...TOOL, inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
          return server;
        })
      : undefined;
  const http = createServer((req, res) => {
    headers.push(req.headers);
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (body.length > 0) methods.push(...methodsOf(body));
      await (modern === undefined ? serveLegacy(req, res, body, tools) : serveModern(modern, req, res, body));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    headers,
    methods,
    addTool: (name) => {
      tools.push(name);
      modern?.notify.toolsChanged();
    },
    close: async () => {
      await modern?.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

function methodsOf(body: Buffer): string[] {
  const parsed = JSON.parse(body.toString('utf8')) as unknown;
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message: { method?: unknown }) => (typeof message.method === 'string' ? message.method : '(response)'));
}

/** The v1 SDK's stateless idiom: a fresh server and transport per POST. */
async function serveLegacy(req: IncomingMessage, res: ServerResponse, body: Buffer, tools: readonly string[]): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = new LegacyMcpServer({ name: 'echo-server', version: '1.0.0' });
  for (const name of tools) server.registerTool(name, { ...TOOL, inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, JSON.parse(body.toString('utf8')));
}

/** node:http in front of the v2 handler's fetch face (what `@modelcontextprotocol/node` would do). */
async function serveModern(handler: McpHttpHandler, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const disconnected = new AbortController();
  res.on('close', () => disconnected.abort());
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) requestHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
  const response = await handler.fetch(
    new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers: requestHeaders, ...(body.length > 0 ? { body } : {}), signal: disconnected.signal }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // A subscriptions/listen stream stays open until the client or close() ends it.
  if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
  res.end();
}
